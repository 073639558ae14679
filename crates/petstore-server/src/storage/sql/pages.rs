//! A page of orders: its conditions (the filters and the keyset's last id)
//! as SQL with numbered placeholders, and the values bound to them.

use chrono::Datelike;

use super::rows::{SHIP_DATE_YEARS, stored_ship_date};
use crate::storage::stored::Argument;
use crate::storage::{OrderFilters, PageQuery};

/// A page query's conditions after `status <> 'cancelled'`, and the
/// arguments of their placeholders.
#[derive(Default)]
pub(super) struct Conditions {
    pub(super) sql: String,
    pub(super) arguments: Vec<Argument>,
}

impl Conditions {
    fn compare(&mut self, column: &str, operator: &str, argument: Argument) {
        self.arguments.push(argument);
        self.sql
            .push_str(&format!(" AND {column} {operator} ${}", self.arguments.len()));
    }
}

/// The conditions of a page; `None` when no stored order can match.
pub(super) fn page_conditions(query: &PageQuery<'_>) -> Option<Conditions> {
    let OrderFilters {
        status,
        pet_id,
        ship_date_from,
        ship_date_to,
        complete,
    } = query.filters;
    let mut conditions = Conditions::default();
    if let Some(after) = query.after {
        conditions.compare("id", ">", Argument::Integer(after));
    }
    if let Some(status) = status {
        conditions.compare("status", "=", Argument::Text(status.as_str().into()));
    }
    if let Some(pet_id) = pet_id {
        conditions.compare("pet_id", "=", Argument::Integer(*pet_id));
    }
    // A bound outside the years a ship date can have excludes every order,
    // or only those without a ship date.
    let years = &SHIP_DATE_YEARS;
    if let Some(from) = ship_date_from {
        match from.year() {
            year if year > *years.end() => return None,
            year if year < *years.start() => conditions.sql.push_str(" AND ship_date IS NOT NULL"),
            _ => conditions.compare("ship_date", ">=", Argument::Text(stored_ship_date(*from))),
        }
    }
    if let Some(to) = ship_date_to {
        match to.year() {
            year if year < *years.start() => return None,
            year if year > *years.end() => conditions.sql.push_str(" AND ship_date IS NOT NULL"),
            _ => conditions.compare("ship_date", "<", Argument::Text(stored_ship_date(*to))),
        }
    }
    if let Some(complete) = complete {
        conditions.compare("complete", "=", Argument::Boolean(*complete));
    }
    Some(conditions)
}
