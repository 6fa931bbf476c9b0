//! Values out to JS with the engine's records ([`super::records`]) turned
//! back into the JS values they stand for: [`to_js`], the conversion
//! `types::args::to_js` uses once a record has entered the engine.
//!
//! It is `serde_wasm_bindgen`'s serializer behind an adapter ([`Out`])
//! that passes everything through but objects whose first key is `lc`:
//! those are read whole (they are small) and, when they are records, go
//! out as the value they stand for (through `serde_wasm_bindgen::preserve`,
//! which hands a ready JS value to the serializer). Any other object costs
//! one look at its first key.

use serde::ser::{self, Impossible, Serialize, Serializer};
use serde_json::{Map, Value};
use wasm_bindgen::JsValue;

/// `value` as JS, records revived.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, serde_wasm_bindgen::Error> {
    value.serialize(Out(&serde_wasm_bindgen::Serializer::json_compatible()))
}

/// The adapter: serializes through `S`, reviving records.
struct Out<S>(S);

/// A value to serialize through [`Out`] (what the adapter hands the inner serializer).
struct Wrap<'a, T: ?Sized>(&'a T);

impl<T: Serialize + ?Sized> Serialize for Wrap<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Out(s))
    }
}

/// The compound serializers of [`Out`]: the inner one's, each value wrapped.
struct Compound<C>(C);

macro_rules! wrapped_compound {
    ($trait:ident, $method:ident $(, $key:ident: $kt:ty)?) => {
        impl<C: ser::$trait> ser::$trait for Compound<C> {
            type Ok = C::Ok;
            type Error = C::Error;
            fn $method<T: Serialize + ?Sized>(&mut self, $($key: $kt,)? value: &T) -> Result<(), C::Error> {
                self.0.$method($($key,)? &Wrap(value))
            }
            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        }
    };
}

wrapped_compound!(SerializeSeq, serialize_element);
wrapped_compound!(SerializeTuple, serialize_element);
wrapped_compound!(SerializeTupleStruct, serialize_field);
wrapped_compound!(SerializeTupleVariant, serialize_field);
wrapped_compound!(SerializeStruct, serialize_field, key: &'static str);
wrapped_compound!(SerializeStructVariant, serialize_field, key: &'static str);

/// A map being serialized: not started (no key seen yet), passed through,
/// or read whole because its first key is `lc` (a record, maybe).
enum MapOut<S: Serializer> {
    Start(S, Option<usize>),
    Plain(S::SerializeMap),
    Reading(S, Option<usize>, Map<String, Value>, Option<String>),
    /// Transient, while a method moves the state.
    Moved,
}

fn custom<E: ser::Error>(e: impl std::fmt::Display) -> E {
    E::custom(e)
}

impl<S: Serializer> MapOut<S> {
    /// The map passed through from here: its entries read so far first.
    fn plain(
        ser: S,
        len: Option<usize>,
        read: Map<String, Value>,
        key: Option<String>,
    ) -> Result<Self, S::Error> {
        let mut inner = ser.serialize_map(len)?;
        for (k, v) in &read {
            ser::SerializeMap::serialize_entry(&mut inner, k, &Wrap(v))?;
        }
        if let Some(k) = key {
            ser::SerializeMap::serialize_key(&mut inner, &Wrap(&k))?;
        }
        Ok(MapOut::Plain(inner))
    }
}

impl<S: Serializer> ser::SerializeMap for MapOut<S> {
    type Ok = S::Ok;
    type Error = S::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        *self = match std::mem::replace(self, MapOut::Moved) {
            MapOut::Start(ser, len) => match key.serialize(IsLc) {
                Ok(true) => MapOut::Reading(ser, len, Map::new(), Some("lc".into())),
                _ => MapOut::plain(ser, len, Map::new(), None).and_then(|mut out| {
                    out.serialize_key(key)?;
                    Ok(out)
                })?,
            },
            MapOut::Plain(mut inner) => {
                inner.serialize_key(&Wrap(key))?;
                MapOut::Plain(inner)
            }
            MapOut::Reading(ser, len, read, _) => match serde_json::to_value(key) {
                Ok(Value::String(k)) => MapOut::Reading(ser, len, read, Some(k)),
                _ => {
                    let mut out = MapOut::plain(ser, len, read, None)?;
                    out.serialize_key(key)?;
                    out
                }
            },
            MapOut::Moved => return Err(custom("map serialized after an error")),
        };
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        *self = match std::mem::replace(self, MapOut::Moved) {
            MapOut::Plain(mut inner) => {
                inner.serialize_value(&Wrap(value))?;
                MapOut::Plain(inner)
            }
            MapOut::Reading(ser, len, mut read, Some(k)) => {
                let v = serde_json::to_value(value).map_err(custom)?;
                // `lc` other than 2: no record; the rest passes through.
                let record = !read.is_empty() || v.as_u64() == Some(2);
                read.insert(k, v);
                match record {
                    true => MapOut::Reading(ser, len, read, None),
                    false => MapOut::plain(ser, len, read, None)?,
                }
            }
            _ => return Err(custom("a map value without its key")),
        };
        Ok(())
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        match self {
            MapOut::Start(ser, len) => ser.serialize_map(len)?.end(),
            MapOut::Plain(inner) => inner.end(),
            MapOut::Reading(ser, len, read, _) => {
                let v = Value::Object(read);
                match super::records::revive(&v).map_err(|e| custom(super::error::describe(&e)))? {
                    Some(js) => serde_wasm_bindgen::preserve::serialize(&js, ser),
                    None => {
                        let Value::Object(read) = v else {
                            unreachable!("built as an object")
                        };
                        ser::SerializeMap::end(MapOut::plain(ser, len, read, None)?)
                    }
                }
            }
            MapOut::Moved => Err(custom("map serialized after an error")),
        }
    }
}

/// `Out`'s methods that pass a value (or nothing) straight to the inner serializer.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
            self.0.$method($($arg),*)
        })*
    };
}

/// `Out`'s methods that start a compound: the inner serializer's, wrapped.
macro_rules! forward_compound {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $compound:ident),* $(,)?) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<Self::$compound, S::Error> {
            self.0.$method($($arg),*).map(Compound)
        })*
    };
}

impl<S: Serializer> Serializer for Out<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<S::SerializeSeq>;
    type SerializeTuple = Compound<S::SerializeTuple>;
    type SerializeTupleStruct = Compound<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<S::SerializeTupleVariant>;
    type SerializeMap = MapOut<S>;
    type SerializeStruct = Compound<S::SerializeStruct>;
    type SerializeStructVariant = Compound<S::SerializeStructVariant>;

    forward!(
        serialize_bool(v: bool),
        serialize_i8(v: i8),
        serialize_i16(v: i16),
        serialize_i32(v: i32),
        serialize_i64(v: i64),
        serialize_i128(v: i128),
        serialize_u8(v: u8),
        serialize_u16(v: u16),
        serialize_u32(v: u32),
        serialize_u64(v: u64),
        serialize_u128(v: u128),
        serialize_f32(v: f32),
        serialize_f64(v: f64),
        serialize_char(v: char),
        serialize_str(v: &str),
        serialize_bytes(v: &[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(name: &'static str),
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str),
    );
    forward_compound!(
        serialize_seq(len: Option<usize>) -> SerializeSeq,
        serialize_tuple(len: usize) -> SerializeTuple,
        serialize_tuple_struct(name: &'static str, len: usize) -> SerializeTupleStruct,
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SerializeTupleVariant,
        serialize_struct(name: &'static str, len: usize) -> SerializeStruct,
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> SerializeStructVariant,
    );

    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Wrap(v))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        // `serde_wasm_bindgen::preserve` passes through here by name.
        self.0.serialize_newtype_struct(name, &Wrap(v))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Wrap(v))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapOut<S>, S::Error> {
        Ok(MapOut::Start(self.0, len))
    }
}

/// Whether a map key is the string `lc` (anything else: `false`).
struct IsLc;

type NoCompound = Impossible<bool, serde::de::value::Error>;

macro_rules! not_lc {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> Result<bool, serde::de::value::Error> {
            Ok(false)
        })*
    };
}

/// [`IsLc`]'s compounds: a map key that is a compound is no string.
macro_rules! not_a_string {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> Result<NoCompound, serde::de::value::Error> {
            Err(ser::Error::custom("not a string"))
        })*
    };
}

impl Serializer for IsLc {
    type Ok = bool;
    type Error = serde::de::value::Error;
    type SerializeSeq = NoCompound;
    type SerializeTuple = NoCompound;
    type SerializeTupleStruct = NoCompound;
    type SerializeTupleVariant = NoCompound;
    type SerializeMap = NoCompound;
    type SerializeStruct = NoCompound;
    type SerializeStructVariant = NoCompound;

    fn serialize_str(self, v: &str) -> Result<bool, Self::Error> {
        Ok(v == "lc")
    }
    not_lc!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<bool, Self::Error> {
        Ok(false)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<bool, Self::Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }
    not_a_string!(
        serialize_seq(Option<usize>),
        serialize_tuple(usize),
        serialize_tuple_struct(&'static str, usize),
        serialize_tuple_variant(&'static str, u32, &'static str, usize),
        serialize_map(Option<usize>),
        serialize_struct(&'static str, usize),
        serialize_struct_variant(&'static str, u32, &'static str, usize),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_string_lc_is_lc() {
        assert_eq!("lc".serialize(IsLc), Ok(true));
        assert_eq!("lcx".serialize(IsLc), Ok(false));
        assert_eq!(2.serialize(IsLc), Ok(false));
        assert!(vec![1].serialize(IsLc).is_err());
    }
}
