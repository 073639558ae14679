//! A value that every request reads and only a rare change replaces (the
//! active keys), read without writing to memory that other threads read.
//!
//! Behind a lock, every read writes the lock's word and the value's
//! reference count, and two threads answering requests pass those cache
//! lines back and forth: measured, the key set's lock cost a cached
//! request several times its instructions. Here each thread keeps the
//! value it last read with the number of the change it was read at, and a
//! read only loads that number: the lock is taken when the number moved.
//! A reader sees a replacement as soon as it is made (the number is bumped
//! before the replacement's lock is released), so nothing reads a value
//! older than the last replacement made before the read began.
//!
//! A thread's copy is a reference: an old value lives until each thread
//! that read it reads again. Fit for small values (the keys), not for
//! large ones another might wait to see freed.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use thread_local::ThreadLocal;

pub struct ReadMostly<T: Send + Sync> {
    value: Mutex<Option<Arc<T>>>,
    /// Bumped by every replacement, under `value`'s lock.
    changes: AtomicU64,
    /// Each thread's last read, with `changes` as it was then.
    read: ThreadLocal<RefCell<(u64, Option<Arc<T>>)>>,
}

impl<T: Send + Sync> Default for ReadMostly<T> {
    fn default() -> Self {
        ReadMostly {
            value: Mutex::new(None),
            changes: AtomicU64::new(0),
            read: ThreadLocal::new(),
        }
    }
}

impl<T: Send + Sync> ReadMostly<T> {
    /// `read` of the value now (`None` before the first).
    pub fn read<R>(&self, read: impl FnOnce(Option<&T>) -> R) -> R {
        let changes = self.changes.load(Ordering::Acquire);
        // Never a thread's first count: its first read takes the lock.
        let kept = self.read.get_or(|| RefCell::new((u64::MAX, None)));
        // A read inside another read of this value, on this thread, finds
        // the thread's copy borrowed: it reads through the lock.
        let Ok(mut kept) = kept.try_borrow_mut() else {
            return read(self.get().as_deref());
        };
        if kept.0 != changes {
            let value = self.lock();
            *kept = (self.changes.load(Ordering::Relaxed), value.clone());
        }
        read(kept.1.as_deref())
    }

    /// The value now, shared.
    pub fn get(&self) -> Option<Arc<T>> {
        self.lock().clone()
    }

    /// Lets `change` replace the value; every read that begins after it
    /// returns sees what it left.
    pub fn replace(&self, change: impl FnOnce(&mut Option<Arc<T>>)) {
        let mut value = self.lock();
        change(&mut value);
        self.changes.fetch_add(1, Ordering::Release);
    }

    fn lock(&self) -> MutexGuard<'_, Option<Arc<T>>> {
        self.value.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replacement_is_read_by_every_thread_that_read_before() {
        let value = ReadMostly::default();
        assert_eq!(value.read(|v: Option<&u32>| v.copied()), None);
        value.replace(|v| *v = Some(Arc::new(1)));
        std::thread::scope(|scope| {
            scope.spawn(|| assert_eq!(value.read(|v| v.copied()), Some(1)));
        });
        assert_eq!(value.read(|v| v.copied()), Some(1));
        value.replace(|v| *v = Some(Arc::new(2)));
        assert_eq!(value.read(|v| v.copied()), Some(2));
        std::thread::scope(|scope| {
            scope.spawn(|| assert_eq!(value.read(|v| v.copied()), Some(2)));
        });
    }

    #[test]
    fn a_read_inside_a_read_reads_through_the_lock() {
        let value = ReadMostly::default();
        value.replace(|v| *v = Some(Arc::new(7)));
        let inner = value.read(|outer| {
            value.replace(|v| *v = Some(Arc::new(8)));
            (outer.copied(), value.read(|inner| inner.copied()))
        });
        assert_eq!(inner, (Some(7), Some(8)));
        assert_eq!(value.read(|v| v.copied()), Some(8));
    }

    #[test]
    fn a_thread_that_keeps_reading_never_sees_an_older_value() {
        let value = Arc::new(ReadMostly::default());
        value.replace(|v| *v = Some(Arc::new(0u64)));
        std::thread::scope(|scope| {
            let reader = value.clone();
            scope.spawn(move || {
                let mut last = 0;
                for _ in 0..100_000 {
                    let now = reader.read(|v| *v.unwrap());
                    assert!(now >= last, "{now} after {last}");
                    last = now;
                }
            });
            for n in 1..=1000u64 {
                value.replace(|v| *v = Some(Arc::new(n)));
            }
        });
    }
}
