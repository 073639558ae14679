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
    items: usize,
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
            items: 0,
            item: PhantomData,
        }
    }

    pub fn push(&mut self, item: &T) -> Result<(), serde_json::Error> {
        if self.items > 0 {
            self.buffer.push(b',');
        }
        serde_json::to_writer(&mut self.buffer, item)?;
        self.items += 1;
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.items
    }

    pub fn is_empty(&self) -> bool {
        self.items == 0
    }

    pub fn finish(mut self) -> Json<Vec<T>> {
        self.buffer.push(b']');
        Json {
            repr: Repr::Serialized(Bytes::from(self.buffer)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Serialize, PartialEq)]
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
            let json = writer.finish();
            assert_eq!(json.to_bytes().unwrap(), serde_json::to_vec(&list).unwrap());
        }
    }

    #[test]
    fn a_value_and_its_serialized_form_give_the_same_bytes() {
        let value = Json::from(items());
        let serialized = Json::serialized(&items()).unwrap();
        assert_eq!(value.to_bytes().unwrap(), serialized.to_bytes().unwrap());
        assert_eq!(serialized.serialized_len(), Some(serialized.to_bytes().unwrap().len()));
        assert_eq!(value.serialized_len(), None);
    }
}
