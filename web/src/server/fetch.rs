//! The browser's side of the server client: one `fetch` per [`Request`].
//! A rejected fetch (no server, or an answer the browser withholds: CORS,
//! a private-network block) is [`ServerError::Unreachable`]; a failure
//! status becomes what [`ServerError::from_status`] says. A streamed run
//! ([`stream`]) that stops before its end is [`ServerError::Dropped`].

use super::{Connection, Event, EventParser, HistoryLoader, Progress, Request, ServerError};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Sends `request` to the server of `conn`; resolves to the answer's JSON.
pub async fn send(conn: &Connection, request: &Request) -> Result<Value, ServerError> {
    let response = respond(conn, request).await?;
    let text = body_text(&response).await;
    if !response.ok() {
        return Err(ServerError::from_status(response.status(), &text));
    }
    serde_json::from_str(&text)
        .map_err(|e| ServerError::BadResponse(format!("{} {}: {e}", request.method, request.path)))
}

/// Sends `request`, whose answer is an event stream, and gives each event
/// to `on_event` as it arrives. Resolves when the stream has ended; a
/// stream that breaks off (the connection lost, or cut inside an event) is
/// [`ServerError::Dropped`].
pub async fn stream(
    conn: &Connection,
    request: &Request,
    mut on_event: impl FnMut(Event),
) -> Result<(), ServerError> {
    let response = respond(conn, request).await?;
    if !response.ok() {
        let text = body_text(&response).await;
        return Err(ServerError::from_status(response.status(), &text));
    }
    let dropped = |_| ServerError::Dropped(conn.url.clone());
    let body = response
        .body()
        .ok_or_else(|| ServerError::BadResponse("a streamed run answered no body".into()))?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let decoder = web_sys::TextDecoder::new().map_err(dropped)?;
    let options = web_sys::TextDecodeOptions::new();
    options.set_stream(true);
    let mut parser = EventParser::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(dropped)?;
        let done = js_sys::Reflect::get(&chunk, &"done".into()).map_err(dropped)?;
        if done.is_truthy() {
            break;
        }
        let bytes: js_sys::Uint8Array = js_sys::Reflect::get(&chunk, &"value".into())
            .map_err(dropped)?
            .unchecked_into();
        let text = decoder
            .decode_with_js_u8_array_and_options(&bytes, &options)
            .map_err(dropped)?;
        for event in parser.push(&text) {
            on_event(event);
        }
    }
    if parser.pending() {
        return Err(ServerError::Dropped(conn.url.clone()));
    }
    Ok(())
}

/// The server's response to `request` (any status); a rejected fetch is
/// [`ServerError::Unreachable`].
async fn respond(conn: &Connection, request: &Request) -> Result<web_sys::Response, ServerError> {
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
    Ok(answer.unchecked_into())
}

/// `response`'s whole body as text (empty when it cannot be read).
async fn body_text(response: &web_sys::Response) -> String {
    match response.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
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
