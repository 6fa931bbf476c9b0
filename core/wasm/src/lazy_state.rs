//! Lazy list channels in the state objects handed to JS nodes and routers:
//! a list whose cached JS value is not current becomes a property that
//! the JS layer (`defineLazy` in npm/src/internal/lazy.ts) defines as an accessor, and
//! whose core value waits here, by the object's token, until the property
//! is read ([`lazy_channel`]: converted through the graph's
//! [`StateCache`]), assigned ([`drop_lazy_channel`]) or the object is
//! collected ([`release_state`]). [`StateCache::state`] builds the objects
//! through [`LazyProperties`].

use super::state_cache::StateCache;
use crate::error::JsResult;
use chronograph::ChannelValue;
use chronograph::Name;
use js_sys::{Function, Object};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// A fresh plain object being filled with a state's channels.
    #[wasm_bindgen(extends = Object)]
    pub(super) type StateObject;

    /// `obj[key] = value`, without `Reflect.set`'s catching wrapper (this
    /// runs for every channel of every node and router call): on a fresh
    /// plain object it can only throw if a setter was planted on
    /// `Object.prototype` under a channel's name.
    #[wasm_bindgen(method, indexing_setter)]
    pub(super) fn set(this: &StateObject, key: &JsValue, value: &JsValue);

    /// The JS layer's `defineLazy(obj, key, token, index)`, for
    /// [`DefineLazy::define`].
    #[wasm_bindgen(extends = Function)]
    type DefineLazy;

    /// `defineLazy.call(undefined, obj, key, token, index)` (typed
    /// arguments: no argument array, numbers cross as numbers).
    #[wasm_bindgen(method, catch, js_name = call)]
    fn define(
        this: &DefineLazy,
        this_arg: &JsValue,
        obj: &StateObject,
        key: &JsValue,
        token: f64,
        index: u32,
    ) -> JsResult<JsValue>;
}

thread_local! {
    /// The JS layer's `defineLazy`, once registered (without it, the
    /// bindings used alone, every channel is converted eagerly).
    static DEFINE_LAZY: RefCell<Option<DefineLazy>> = const { RefCell::new(None) };
    /// The core values behind the lazy properties of live state objects.
    static LAZY: RefCell<LazyTable> = RefCell::new(LazyTable::default());
}

/// The lazy channels of the state objects handed to JS, by token (one per
/// state object with lazy properties; tokens are never reused, so a late
/// release of a settled token cannot free another object's values).
#[derive(Default)]
struct LazyTable {
    next: u64,
    states: HashMap<u64, LazyState, rustc_hash::FxBuildHasher>,
}

/// A lazy property's channel and core value, `None` once read or assigned.
type LazySlot = Option<(Name, ChannelValue)>;

/// A state object's lazy slots: the first inline (usually the only one: no
/// allocation per state object), then the others.
#[derive(Default)]
struct Slots {
    first: LazySlot,
    rest: Vec<LazySlot>,
    len: usize,
}

impl Slots {
    fn push(&mut self, slot: LazySlot) {
        match self.len {
            0 => self.first = slot,
            _ => self.rest.push(slot),
        }
        self.len += 1;
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut LazySlot> {
        std::iter::once(&mut self.first).chain(self.rest.iter_mut())
    }
}

/// One state object's lazy channels: the cache that converts them and,
/// per lazy property (in the order defined), its channel and core value until the
/// property is read or assigned.
struct LazyState {
    cache: Rc<StateCache>,
    channels: Slots,
    unsettled: usize,
}

/// Registers the JS layer's `defineLazy(obj, key, token, index)`: defines
/// `obj[key]` as an enumerable accessor (in `key`'s place among the keys)
/// whose first read calls [`lazy_channel`]`(token, key)` and whose
/// assignment calls [`drop_lazy_channel`]`(token, key)`, each then
/// turning the property into a plain data property; for index 0 it also
/// registers `obj` so that [`release_state`]`(token)` runs when it is
/// collected. Without it every channel is converted eagerly.
#[wasm_bindgen(js_name = registerDefineLazy)]
pub fn register_define_lazy(
    #[wasm_bindgen(
        unchecked_param_type = "(obj: object, key: string, token: number, index: number) => void"
    )]
    f: Function,
) {
    DEFINE_LAZY.with(|d| *d.borrow_mut() = Some(f.unchecked_into()));
}

/// Takes lazy property `key` of state object `token` out of the table
/// (freeing the object's entry once none is left).
fn take_lazy(token: f64, key: &str) -> Option<(Rc<StateCache>, Name, ChannelValue)> {
    LAZY.with(|t| {
        let mut t = t.borrow_mut();
        let token = token as u64;
        let state = t.states.get_mut(&token)?;
        let slot = state
            .channels
            .iter_mut()
            .find(|s| s.as_ref().is_some_and(|(name, _)| &**name == key))?;
        let (name, value) = slot.take()?;
        let cache = state.cache.clone();
        state.unsettled -= 1;
        if state.unsettled == 0 {
            t.states.remove(&token);
        }
        Some((cache, name, value))
    })
}

/// The JS value of lazy property `key` of state object `token`, converted
/// through the graph's [`StateCache`] (incrementally, and cached for the
/// next calls); `undefined` when it was already read or assigned.
#[wasm_bindgen(js_name = lazyChannel, unchecked_return_type = "unknown")]
pub fn lazy_channel(token: f64, key: &str) -> JsResult<JsValue> {
    match take_lazy(token, key) {
        Some((cache, name, value)) => Ok(cache.channel(&name, &value)?.1),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// Lazy property `key` of state object `token` was assigned: its core
/// value is released unconverted.
#[wasm_bindgen(js_name = dropLazyChannel)]
pub fn drop_lazy_channel(token: f64, key: &str) {
    drop(take_lazy(token, key));
}

/// State object `token` was collected: the core values behind its lazy
/// properties that were never read are released (a no-op once all were).
#[wasm_bindgen(js_name = releaseState)]
pub fn release_state(token: f64) {
    let state = LAZY.with(|t| t.borrow_mut().states.remove(&(token as u64)));
    drop(state);
}

/// How many state objects still hold lazy channel values (for tests).
#[wasm_bindgen(js_name = lazyStates)]
pub fn lazy_states() -> u32 {
    LAZY.with(|t| t.borrow().states.len() as u32)
}

/// The lazy properties of one state object being built
/// ([`StateCache::state`]): its token, taken on the first one, and their
/// channels and values.
#[derive(Default)]
pub(super) struct LazyProperties {
    token: Option<u64>,
    channels: Slots,
}

impl LazyProperties {
    /// Makes `obj[key]` a lazy property for channel `name`'s `value`
    /// through the JS layer's `defineLazy`. Returns `false`, having done
    /// nothing, when the JS layer registered none (the bindings used
    /// alone): the caller then converts the value itself.
    pub(super) fn define(
        &mut self,
        obj: &StateObject,
        key: &JsValue,
        name: &Name,
        value: &ChannelValue,
    ) -> JsResult<bool> {
        DEFINE_LAZY.with(|define| {
            let define = define.borrow();
            let Some(define) = &*define else {
                return Ok(false);
            };
            let token = *self.token.get_or_insert_with(|| {
                LAZY.with(|t| {
                    let mut t = t.borrow_mut();
                    t.next += 1;
                    t.next
                })
            });
            let index = self.channels.len as u32;
            self.channels.push(Some((name.clone(), value.clone())));
            define.define(&JsValue::UNDEFINED, obj, key, token as f64, index)?;
            Ok(true)
        })
    }

    /// Keeps the object's lazy values under its token, with the cache that
    /// converts them (nothing when no property was lazy).
    pub(super) fn finish(self, cache: &Rc<StateCache>) {
        if let Some(token) = self.token {
            let state = LazyState {
                cache: cache.clone(),
                unsettled: self.channels.len,
                channels: self.channels,
            };
            LAZY.with(|t| t.borrow_mut().states.insert(token, state));
        }
    }
}
