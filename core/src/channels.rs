//! Channels: the named slots a graph's state lives in, and the rules for
//! writing to them (LangGraph's `LastValue`, `BinaryOperatorAggregate`,
//! `EphemeralValue` and `Topic` in `kind`; the join barrier,
//! `NamedBarrierValue`, in `named_barrier_value`).

mod kind;
mod list;
mod messages;
mod named_barrier_value;
mod reducer;
mod value;

pub use kind::ChannelKind;
pub use list::Iter as ChannelListIter;
pub use messages::add_messages;
pub(crate) use named_barrier_value::seen_names;
pub(crate) use reducer::add_numbers;
pub use reducer::{overwrite_value, CustomReducer, Reducer, OVERWRITE};
pub(crate) use value::{py_repr, py_type};
pub use value::{ChannelList, ChannelValue};
