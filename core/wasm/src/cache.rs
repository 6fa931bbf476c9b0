//! Node caching with a JavaScript cache: [`JsCache`] is the core
//! `BaseCache` over an object with LangGraph.js's `BaseCache` methods
//! (`get(keys)`, `set(pairs)`, each returning a Promise), and
//! [`cache_policy`] a node's `cachePolicy` whose key text a JS function
//! makes from the node's JS input (LangGraph.js's
//! `(keyFunc ?? JSON.stringify)([input])`, in the npm layer).

use super::error::from_thrown;
use super::node::StateCache;
use super::types::args::{from_js, get, json_from_js, to_js};
use crate::error::JsResult;
use chronograph::{BaseCache, CacheFuture, CacheKey, CachePolicy, CachedWrites, State};
use js_sys::{Array, Function, Promise};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(typescript_custom_section)]
const TS_CACHE: &str = r#"
/** A node cache (`JsCache`): the methods of LangGraph.js's `BaseCache` the engine calls, keys `[namespace, key]`. */
export interface EngineCache {
  get(keys: [string[], string][]): Promise<{ key: [string[], string]; value: unknown }[]>;
  set(pairs: { key: [string[], string]; value: [string, unknown][]; ttl: number | undefined }[]): unknown;
  clear(namespaces: string[][]): Promise<unknown>;
}
"#;

/// A JS cache: `get([[namespace, key], ...])` resolves to `[{ key: [namespace,
/// key], value: [[channel, value], ...] }]`, `set([{ key, value, ttl }])`
/// stores (not awaited, as LangGraph.js does not await it).
pub struct JsCache {
    cache: JsValue,
}

impl JsCache {
    /// Wraps a JS cache object (checked by the npm layer).
    pub fn new(cache: JsValue) -> Self {
        JsCache { cache }
    }

    fn call(&self, method: &str, arg: &JsValue) -> chronograph::Result<JsValue> {
        let f = get(&self.cache, method);
        let f = f.dyn_ref::<Function>().ok_or_else(|| {
            chronograph::Error::value(format!("the cache has no {method}() method"))
        })?;
        f.call1(&self.cache, arg).map_err(from_thrown)
    }
}

/// A key as LangGraph.js's caches take it: `[namespace, key]`.
fn key_to_js(key: &CacheKey) -> JsResult<JsValue> {
    to_js(&(&key.ns, &key.key))
}

/// A cache entry's value, `[[channel, value], ...]`, as writes.
fn writes_from_js(value: JsValue) -> JsResult<CachedWrites> {
    from_js::<Vec<(String, Value)>>(value, "the cache's entry")
}

impl BaseCache for JsCache {
    fn get(&self, keys: Vec<CacheKey>) -> CacheFuture<Vec<(CacheKey, CachedWrites)>> {
        let asked: JsResult<Array> = keys.iter().map(key_to_js).collect();
        let called = asked
            .map_err(from_thrown)
            .and_then(|asked| self.call("get", &asked));
        Box::pin(async move {
            let found = JsFuture::from(Promise::resolve(&called?))
                .await
                .map_err(from_thrown)?;
            let mut out = Vec::new();
            for entry in Array::from(&found).iter() {
                let (ns, key): (Vec<String>, String) =
                    from_js(get(&entry, "key"), "the cache's entry key").map_err(from_thrown)?;
                let writes = writes_from_js(get(&entry, "value")).map_err(from_thrown)?;
                out.push((CacheKey { ns, key }, writes));
            }
            Ok(out)
        })
    }

    fn set(&self, entries: Vec<(CacheKey, CachedWrites, Option<f64>)>) -> chronograph::Result<()> {
        let pairs = Array::new();
        for (key, writes, ttl) in &entries {
            let pair = js_sys::Object::new();
            let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&pair, &k.into(), v);
            let value = to_js(writes).map_err(from_thrown)?;
            set("key", &key_to_js(key).map_err(from_thrown)?).map_err(from_thrown)?;
            set("value", &value).map_err(from_thrown)?;
            set("ttl", &ttl.map_or(JsValue::UNDEFINED, JsValue::from)).map_err(from_thrown)?;
            pairs.push(&pair);
        }
        self.call("set", &pairs).map(drop)
    }

    fn clear(&self, namespaces: Option<Vec<Vec<String>>>) -> CacheFuture<()> {
        let called = to_js(&namespaces.unwrap_or_default())
            .map_err(from_thrown)
            .and_then(|ns| self.call("clear", &ns));
        Box::pin(async move {
            JsFuture::from(Promise::resolve(&called?))
                .await
                .map(drop)
                .map_err(from_thrown)
        })
    }
}

/// A node's cache policy: `key_of(input)` (a JS function of the node's JS
/// input) gives the text its key hashes, entries live `ttl` seconds.
pub fn cache_policy(key_of: Function, ttl: Option<f64>, states: Rc<StateCache>) -> CachePolicy {
    CachePolicy {
        key_func: Some(Rc::new(move |state: &State| {
            let input = states.state(state).map_err(from_thrown)?;
            let text = key_of
                .call1(&JsValue::UNDEFINED, &input)
                .map_err(from_thrown)?;
            match text.as_string() {
                Some(text) => Ok(text),
                None => json_from_js(text, "cachePolicy.keyFunc(input)")
                    .map(|v| v.to_string())
                    .map_err(from_thrown),
            }
        })),
        ttl,
    }
}
