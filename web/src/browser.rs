//! The few browser services the app uses: localStorage, the URL's query and
//! file download/upload. Every call degrades to a no-op when the service is
//! missing (private mode, a test page), so the app still runs.

use wasm_bindgen::{JsCast, JsValue};

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Reads a localStorage key.
pub fn load(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Writes a localStorage key. `false` when the browser refused it (quota
/// exceeded, storage disabled); a missing localStorage is not an error.
pub fn save(key: &str, value: &str) -> bool {
    storage().is_none_or(|s| s.set_item(key, value).is_ok())
}

/// Removes a localStorage key.
pub fn remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// A query parameter of the page's URL.
pub fn query(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name).filter(|v| !v.is_empty())
}

/// The browser's preferred languages (`navigator.languages`), best first.
pub fn languages() -> Vec<String> {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let list: Vec<String> = nav
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if list.is_empty() {
        nav.language().into_iter().collect()
    } else {
        list
    }
}

/// Sets `<html lang>` (screen readers pick their voice from it, and CSS
/// `:lang()` its fonts) and the page title.
pub fn set_document_lang(code: &str, title: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(html) = doc.document_element() {
        let _ = html.set_attribute("lang", code);
    }
    doc.set_title(title);
}

/// Rewrites the URL's query (no reload, no history entry).
pub fn set_query(pairs: &[(&str, Option<&str>)]) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(params) = web_sys::UrlSearchParams::new() else {
        return;
    };
    for (k, v) in pairs {
        if let Some(v) = v {
            params.append(k, v);
        }
    }
    let query: String = params.to_string().into();
    let path = window.location().pathname().unwrap_or_default();
    let url = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    if let Ok(h) = window.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "could not make the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "no object URL")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| "no anchor")?
        .unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Reads a file chosen in an `<input type=file>` and calls `done` with its
/// text, later (the read is asynchronous).
pub fn read_file(file: &web_sys::File, done: impl FnOnce(Result<String, String>) + 'static) {
    let promise = file.text();
    leptos::task::spawn_local(async move {
        let result = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map_err(|_| "could not read the file".to_owned())
            .and_then(|v| {
                v.as_string()
                    .ok_or_else(|| "the file is not text".to_owned())
            });
        done(result);
    });
}

/// Moves the keyboard focus to the element with id `id`, if there is one.
pub fn focus(id: &str) {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(e) = element {
        let _ = e.focus();
    }
}
