//! Work over independent items on every core: the corpus's documents, the
//! generated files' dependency check. A leaf: it knows nothing of what
//! the items are.

/// `work` on each of `items`, each core taking every n-th item (so that
/// large items next to each other spread over the cores), the results in
/// the items' order. A panic in `work` is the caller's: it is passed on.
pub fn map_on_every_core<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let work = &work;
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let shares: Vec<_> = (0..cores)
            .map(|share| {
                scope.spawn(move || {
                    items
                        .iter()
                        .enumerate()
                        .skip(share)
                        .step_by(cores)
                        .map(|(index, item)| (index, work(item)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        shares
            .into_iter()
            .flat_map(|share| share.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    done.sort_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::map_on_every_core;

    #[test]
    fn results_come_back_in_the_items_order() {
        let items: Vec<u32> = (0..101).collect();
        assert_eq!(
            map_on_every_core(&items, |n| n * 2),
            items.iter().map(|n| n * 2).collect::<Vec<_>>()
        );
        assert!(map_on_every_core(&[] as &[u32], |n| *n).is_empty());
    }
}
