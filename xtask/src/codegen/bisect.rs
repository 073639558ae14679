//! Which items a failure needs. typify and progenitor fail for a set of
//! schemas or operations without saying which; this halves the set until
//! the half that still fails alone is one item, and where two halves fail
//! only together, finds the few of each that do (Zeller's delta
//! debugging, by halves): a logarithmic number of tries per culprit,
//! where trying each item alone is linear, and on a document of
//! thousands of schemas, each try costs the whole document. A leaf.

/// A small part of `items` that `fails` holds for (given the items to
/// keep as they are, the others being made harmless), or `None` when
/// `fails` does not hold for all of them.
pub fn failing_part<T: Clone>(items: &[T], fails: &mut dyn FnMut(&[T]) -> bool) -> Option<Vec<T>> {
    if items.is_empty() || !fails(items) {
        return None;
    }
    Some(needed(items, &[], fails))
}

/// The items of `part` that, beside `context`, `fails` needs (it holds
/// for `context` and `part` together, not for `context` alone).
fn needed<T: Clone>(part: &[T], context: &[T], fails: &mut dyn FnMut(&[T]) -> bool) -> Vec<T> {
    if part.len() <= 1 {
        return part.to_vec();
    }
    let (first, second) = part.split_at(part.len() / 2);
    let with = |context: &[T], more: &[T]| -> Vec<T> { context.iter().chain(more).cloned().collect() };
    if fails(&with(context, first)) {
        return needed(first, context, fails);
    }
    if fails(&with(context, second)) {
        return needed(second, context, fails);
    }
    // Some of each half, together.
    let from_first = needed(first, &with(context, second), fails);
    let from_second = needed(second, &with(context, &from_first), fails);
    from_first.into_iter().chain(from_second).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_culprit_is_found_in_a_logarithmic_number_of_tries() {
        let items: Vec<u32> = (0..1000).collect();
        let mut tries = 0;
        let found = failing_part(&items, &mut |part| {
            tries += 1;
            part.contains(&617)
        });
        assert_eq!(found, Some(vec![617]));
        assert!(tries <= 2 * 11, "{tries}");
    }

    #[test]
    fn two_that_fail_only_together_are_found_with_their_part() {
        let items: Vec<u32> = (0..8).collect();
        let found = failing_part(&items, &mut |part| part.contains(&1) && part.contains(&6)).unwrap();
        assert_eq!(found, [1, 6]);
        assert_eq!(failing_part(&items, &mut |_| false), None);
    }
}
