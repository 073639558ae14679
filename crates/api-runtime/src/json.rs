//! JSON success bodies that can be serialized once and sent many times.
//!
//! dropshot's typed responses (`HttpResponseOk<T>`) serialize `T` on every
//! request. A handler that serves the same body again and again (a cached
//! list) can instead hand over bytes it serialized once, as a [`Json<T>`]:
//! the bytes can only come from serializing `T` (whole, or item by item
//! with [`JsonArrayWriter`]), so the compiler still holds the handler to
//! the contract.

use std::fmt;
use std::marker::PhantomData;

use bytes::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A JSON body of type `T`: a value to serialize when the response is
/// sent, or the bytes of one serialized earlier. Cloning serialized bytes
/// is cheap (they are shared).
pub struct Json<T> {
    repr: Repr<T>,
}

enum Repr<T> {
    Value(T),
    Serialized(Bytes),
}

impl<T> From<T> for Json<T> {
    fn from(value: T) -> Self {
        Json {
            repr: Repr::Value(value),
        }
    }
}

impl<T: Serialize> Json<T> {
    /// Serializes `value` now, so that the bytes can be sent many times.
    pub fn serialized(value: &T) -> Result<Self, serde_json::Error> {
        Ok(Json {
            repr: Repr::Serialized(serde_json::to_vec(value)?.into()),
        })
    }

    /// The body's bytes (serializing a value now).
    pub fn to_bytes(&self) -> Result<Bytes, serde_json::Error> {
        match &self.repr {
            Repr::Value(value) => Ok(serde_json::to_vec(value)?.into()),
            Repr::Serialized(bytes) => Ok(bytes.clone()),
        }
    }

    /// The body's bytes, taken (serializing a value now): no second
    /// reference to serialized bytes, which every request that sends them
    /// would count up and down on memory the other threads' requests share.
    pub fn into_bytes(self) -> Result<Bytes, serde_json::Error> {
        match self.repr {
            Repr::Value(value) => Ok(serde_json::to_vec(&value)?.into()),
            Repr::Serialized(bytes) => Ok(bytes),
        }
    }
}

impl<T> Json<T> {
    /// The size of the serialized body, if it is serialized already.
    pub fn serialized_len(&self) -> Option<usize> {
        match &self.repr {
            Repr::Value(_) => None,
            Repr::Serialized(bytes) => Some(bytes.len()),
        }
    }
}

impl<T: Clone> Clone for Json<T> {
    fn clone(&self) -> Self {
        Json {
            repr: match &self.repr {
                Repr::Value(value) => Repr::Value(value.clone()),
                Repr::Serialized(bytes) => Repr::Serialized(bytes.clone()),
            },
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for Json<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Value(value) => f.debug_tuple("Json").field(value).finish(),
            Repr::Serialized(bytes) => write!(f, "Json(<{} serialized bytes>)", bytes.len()),
        }
    }
}

/// Builds the JSON array of a `Vec<T>` one item at a time, so that a long
/// list is never held as values: only its bytes are.
pub struct JsonArrayWriter<T> {
    buffer: Vec<u8>,
    /// Where each item's bytes end (4 bytes an item: a long list's index
    /// stays small beside its bytes).
    ends: Vec<u32>,
    item: PhantomData<fn(&T)>,
}

impl<T: Serialize> JsonArrayWriter<T> {
    /// `capacity` is a guess of the body's size in bytes (the last one's,
    /// say), so that the buffer rarely grows.
    pub fn with_capacity(capacity: usize) -> Self {
        let mut buffer = Vec::with_capacity(capacity.max(2));
        buffer.push(b'[');
        JsonArrayWriter {
            buffer,
            ends: Vec::new(),
            item: PhantomData,
        }
    }

    pub fn push(&mut self, item: &T) -> Result<(), serde_json::Error> {
        if !self.ends.is_empty() {
            self.buffer.push(b',');
        }
        serde_json::to_writer(&mut self.buffer, item)?;
        self.ends.push(offset(self.buffer.len())?);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The array, with where each item lies in it, so that items can be
    /// left out later without serializing the others again
    /// ([`JsonArray::body`] is the body to send).
    pub fn finish(mut self) -> JsonArray<T> {
        self.buffer.push(b']');
        JsonArray {
            bytes: Bytes::from(self.buffer),
            ends: self.ends,
            item: PhantomData,
        }
    }
}

/// A serialized JSON array of `T` that knows where each item lies: a new
/// array without some items is a copy of the others' bytes, with no item
/// serialized again.
pub struct JsonArray<T> {
    bytes: Bytes,
    ends: Vec<u32>,
    item: PhantomData<fn(&T)>,
}

impl<T> JsonArray<T> {
    /// The body to send (its bytes are shared, not copied).
    pub fn body(&self) -> Json<Vec<T>> {
        Json {
            repr: Repr::Serialized(self.bytes.clone()),
        }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The size of the serialized array.
    pub fn serialized_len(&self) -> usize {
        self.bytes.len()
    }

    /// The bytes of item `index` (after `[` or the comma before it).
    fn item(&self, index: usize) -> &[u8] {
        let start = match index {
            0 => 1,
            _ => self.ends[index - 1] as usize + 1,
        };
        &self.bytes[start..self.ends[index] as usize]
    }
}

impl<T: DeserializeOwned> JsonArray<T> {
    /// The array without the items whose key is in `keys`. The items must
    /// be in ascending order of `key_of` (each key is found by a binary
    /// search, which reads only the items it looks at); a key that no item
    /// has is passed over.
    pub fn without<K: Ord>(&self, keys: &[K], key_of: impl Fn(&T) -> K) -> Result<JsonArray<T>, serde_json::Error> {
        let mut dropped = Vec::with_capacity(keys.len());
        for key in keys {
            let mut failure = None;
            let found = binary_search(self.len(), |index| {
                match serde_json::from_slice::<T>(self.item(index)) {
                    Ok(item) => key_of(&item).cmp(key),
                    Err(e) => {
                        failure.get_or_insert(e);
                        std::cmp::Ordering::Equal
                    }
                }
            });
            if let Some(e) = failure {
                return Err(e);
            }
            dropped.extend(found);
        }
        dropped.sort_unstable();
        dropped.dedup();
        let mut buffer = Vec::with_capacity(self.bytes.len());
        let mut ends = Vec::with_capacity(self.len() - dropped.len());
        buffer.push(b'[');
        let mut dropped = dropped.into_iter().peekable();
        for index in 0..self.len() {
            if dropped.next_if_eq(&index).is_some() {
                continue;
            }
            if !ends.is_empty() {
                buffer.push(b',');
            }
            buffer.extend_from_slice(self.item(index));
            // Never longer than the array it comes from.
            ends.push(offset(buffer.len())?);
        }
        buffer.push(b']');
        Ok(JsonArray {
            bytes: Bytes::from(buffer),
            ends,
            item: PhantomData,
        })
    }
}

/// An item's end as the index keeps it.
fn offset(len: usize) -> Result<u32, serde_json::Error> {
    u32::try_from(len).map_err(|_| serde::ser::Error::custom("a JSON array of 4 GiB or more"))
}

/// The index in `0..len` where `compare` answers `Equal`, if any, for a
/// `compare` that is ascending over the indexes.
fn binary_search(len: usize, mut compare: impl FnMut(usize) -> std::cmp::Ordering) -> Option<usize> {
    let (mut low, mut high) = (0, len);
    while low < high {
        let middle = low + (high - low) / 2;
        match compare(middle) {
            std::cmp::Ordering::Less => low = middle + 1,
            std::cmp::Ordering::Greater => high = middle,
            std::cmp::Ordering::Equal => return Some(middle),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Serialize, serde::Deserialize, PartialEq)]
    struct Item {
        id: i64,
        name: String,
    }

    fn items() -> Vec<Item> {
        vec![
            Item {
                id: 1,
                name: "a\"b".into(),
            },
            Item {
                id: 2,
                name: "é".into(),
            },
        ]
    }

    #[test]
    fn array_writer_gives_the_bytes_serde_json_gives() {
        for list in [vec![], items()] {
            let mut writer = JsonArrayWriter::with_capacity(0);
            for item in &list {
                writer.push(item).unwrap();
            }
            assert_eq!(writer.len(), list.len());
            let json = writer.finish().body();
            assert_eq!(json.to_bytes().unwrap(), serde_json::to_vec(&list).unwrap());
        }
    }

    fn numbered(ids: &[i64]) -> Vec<Item> {
        ids.iter()
            .map(|&id| Item {
                id,
                name: format!("n{id},\"]"),
            })
            .collect()
    }

    fn indexed(items: &[Item]) -> JsonArray<Item> {
        let mut writer = JsonArrayWriter::with_capacity(0);
        for item in items {
            writer.push(item).unwrap();
        }
        writer.finish()
    }

    #[test]
    fn leaving_items_out_gives_the_bytes_of_the_shorter_list() {
        let all: Vec<i64> = (1..=9).collect();
        let cases: [(&[i64], &[i64]); 6] = [
            (&[], &all),
            (&[1], &[2, 3, 4, 5, 6, 7, 8, 9]),
            (&[9], &[1, 2, 3, 4, 5, 6, 7, 8]),
            (&[2, 5, 5, 8], &[1, 3, 4, 6, 7, 9]),
            // Keys no item has are passed over.
            (&[0, 4, 42], &[1, 2, 3, 5, 6, 7, 8, 9]),
            (&all, &[]),
        ];
        let array = indexed(&numbered(&all));
        for (keys, left) in cases {
            let shorter = array.without(keys, |item| item.id).unwrap();
            let expected = serde_json::to_vec(&numbered(left)).unwrap();
            assert_eq!(shorter.body().to_bytes().unwrap(), expected, "without {keys:?}");
            assert_eq!(shorter.len(), left.len());
            assert_eq!(shorter.serialized_len(), expected.len());
            // And again from the shorter one: its index is right too.
            let again = shorter.without(&[3], |item| item.id).unwrap();
            let left: Vec<i64> = left.iter().copied().filter(|&id| id != 3).collect();
            assert_eq!(
                again.body().to_bytes().unwrap(),
                serde_json::to_vec(&numbered(&left)).unwrap()
            );
        }
        let empty = indexed(&[]).without(&[1], |item| item.id).unwrap();
        assert_eq!(empty.body().to_bytes().unwrap(), b"[]".as_slice());
    }

    #[test]
    fn a_value_and_its_serialized_form_give_the_same_bytes() {
        let value = Json::from(items());
        let serialized = Json::serialized(&items()).unwrap();
        assert_eq!(value.to_bytes().unwrap(), serialized.to_bytes().unwrap());
        assert_eq!(serialized.clone().into_bytes().unwrap(), serialized.to_bytes().unwrap());
        assert_eq!(serialized.serialized_len(), Some(serialized.to_bytes().unwrap().len()));
        assert_eq!(value.serialized_len(), None);
    }
}
