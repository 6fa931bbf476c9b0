//! The browser's side of the server client: one `fetch` per [`Request`].
//! A rejected fetch (no server, or an answer the browser withholds: CORS,
//! a private-network block) is [`ServerError::Unreachable`]; a failure
//! status becomes what [`ServerError::from_status`] says.

use super::{Connection, HistoryLoader, Progress, Request, ServerError};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Sends `request` to the server of `conn`; resolves to the answer's JSON.
pub async fn send(conn: &Connection, request: &Request) -> Result<Value, ServerError> {
    let url = conn.url_of(request);
    let unreachable = |_| ServerError::Unreachable(conn.url.clone());
    let init = web_sys::RequestInit::new();
    init.set_method(request.method);
    init.set_mode(web_sys::RequestMode::Cors);
    let headers = web_sys::Headers::new().map_err(unreachable)?;
    for (k, v) in conn.headers() {
        headers.set(k, &v).map_err(unreachable)?;
    }
    init.set_headers(&headers);
    if let Some(body) = &request.body {
        init.set_body(&JsValue::from_str(&body.to_string()));
    }
    let window = web_sys::window().ok_or_else(|| ServerError::Unreachable(conn.url.clone()))?;
    let answer = JsFuture::from(window.fetch_with_str_and_init(&url, &init))
        .await
        .map_err(unreachable)?;
    let response: web_sys::Response = answer.unchecked_into();
    let text = match response.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    if !response.ok() {
        return Err(ServerError::from_status(response.status(), &text));
    }
    serde_json::from_str(&text)
        .map_err(|e| ServerError::BadResponse(format!("{} {}: {e}", request.method, request.path)))
}

/// Pages through `loader`'s thread until it is whole, calling `progress`
/// after each page.
pub async fn load_history(
    conn: &Connection,
    mut loader: HistoryLoader,
    progress: impl Fn(Progress),
) -> Result<HistoryLoader, ServerError> {
    while let Some(request) = loader.next_request() {
        let page = send(conn, &request).await?;
        loader.take_page(page)?;
        progress(loader.progress());
    }
    Ok(loader)
}
