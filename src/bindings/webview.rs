//! The settings page's glue to its host (feature `webview`, the page's own wasm module), on gloo:
//!
//! - [`HostLink`]: the message channel. Host messages arrive as `message` events on the window
//!   (gloo-events) and are taken only from the host: the window that embeds the page (in VS Code,
//!   its own webview frame; on a web page, the parent frame, from the host's origin), never from a
//!   sibling frame, an opener or a frame the page embeds. The page's go out through VS Code's
//!   `acquireVsCodeApi().postMessage`, or to the parent frame addressed to the host's origin (the
//!   page's own unless the embedder names another), never to `*`.
//! - Draft storage on the same object: VS Code's `getState` / `setState` when present (the state
//!   survives the panel being hidden and reloaded), else the browser's local storage
//!   (gloo-storage), else memory.
//! - [`Debouncer`]: runs a callback once input has paused (gloo-timers), for validation as the
//!   user types.
//!
//! The page's DOM is plain JavaScript; validation and decisions are the core's (the `engine` and
//! `mcp` bindings built into the same module).

use gloo_events::EventListener;
use gloo_storage::{LocalStorage, Storage};
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The `type`s of the messages a host sends to the page (PROTOCOL.md).
pub const HOST_MESSAGE_TYPES: [&str; 4] = ["load", "saved", "rejected", "activity"];

fn get(target: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(target, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

fn method(target: &JsValue, key: &str) -> Option<js_sys::Function> {
    get(target, key).and_then(|f| f.dyn_into::<js_sys::Function>().ok())
}

/// Whether a message event's data is one of the host's messages.
fn is_host_message(data: &JsValue) -> bool {
    data.is_object() && get(data, "type").and_then(|t| t.as_string()).is_some_and(|t| HOST_MESSAGE_TYPES.contains(&t.as_str()))
}

/// How many windows [`embedder`] looks at, at most: a page's frames are a handful.
const MAX_FRAMES: u32 = 1000;

/// The window that embeds the page: `window.parent` (the page itself when it is not framed), or,
/// where it was deleted from the page's window — VS Code's webview does so, before the page runs —
/// the window of the frame tree (from `window.top`, which cannot be deleted) whose child frames
/// hold the page. `None` when neither says (no message is then from the host).
fn embedder(window: &web_sys::Window) -> Option<JsValue> {
    let page = JsValue::from(window.clone());
    if let Some(parent) = get(&page, "parent") {
        return Some(parent);
    }
    let top = get(&page, "top")?;
    if top == page {
        return Some(page);
    }
    let mut queue = vec![top];
    let mut looked = 0u32;
    while let Some(frame) = queue.pop() {
        // A frame's children are its indexed properties, readable across origins.
        for index in 0..MAX_FRAMES {
            looked += 1;
            if looked > MAX_FRAMES {
                return None;
            }
            let child = match js_sys::Reflect::get_u32(&frame, index) {
                Ok(child) if !child.is_undefined() && !child.is_null() => child,
                _ => break,
            };
            if child == page {
                return Some(frame);
            }
            queue.push(child);
        }
    }
    None
}

/// Whether a message event comes from the host: sent by the window that embeds the page (the page
/// itself when it is not framed: a host in the same window) and, when `origin` is given, from
/// that origin. Any other frame of the browser can post to the page; only its host may speak.
fn from_host(event: &web_sys::MessageEvent, origin: Option<&str>) -> bool {
    let Some(host) = web_sys::window().as_ref().and_then(embedder) else { return false };
    let from_host_window = event.source().is_some_and(|source| JsValue::from(source) == host);
    from_host_window && origin.is_none_or(|origin| event.origin() == origin)
}

/// The origin of `text` (`https://host.example`, a URL on it): what a host outside VS Code names so
/// the page posts to it and hears from it only. `*` and opaque origins are refused.
fn origin_of(text: &str) -> Result<String, JsValue> {
    let refuse = || super::error(&format!("hostOrigin {text:?} is not an origin such as https://host.example"));
    if text.trim() == "*" {
        return Err(refuse());
    }
    let url = get(&js_sys::global().into(), "URL").and_then(|c| c.dyn_into::<js_sys::Function>().ok()).ok_or_else(refuse)?;
    let parsed = js_sys::Reflect::construct(&url, &js_sys::Array::of1(&JsValue::from_str(text))).map_err(|_| refuse())?;
    match get(&parsed, "origin").and_then(|o| o.as_string()) {
        Some(origin) if !origin.is_empty() && origin != "null" => Ok(origin),
        _ => Err(refuse()),
    }
}

/// Where drafts are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DraftPlace {
    VsCodeState,
    LocalStorage,
    Memory,
}

/// The page's end of the channel to its host, and where its drafts are kept.
#[wasm_bindgen]
pub struct HostLink {
    api: Option<JsValue>,
    /// Where the page's messages go outside VS Code: the host's origin, or `/` (the page's own).
    target_origin: String,
    place: DraftPlace,
    key: String,
    memory: RefCell<Option<JsValue>>,
    _listener: EventListener,
}

impl std::fmt::Debug for HostLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostLink").field("place", &self.place).field("key", &self.key).finish_non_exhaustive()
    }
}

#[wasm_bindgen]
impl HostLink {
    /// Listens for the host's messages (`load`, `saved`, `rejected`, `activity`), each passed to
    /// `onMessage`; a message from any window but the one that embeds the page is ignored.
    /// `api` is VS Code's webview API object if the page already acquired it (it can be acquired
    /// only once); otherwise `acquireVsCodeApi()` is called when it exists. `storageKey` names the
    /// draft in local storage when there is no VS Code state. `hostOrigin` is the origin of a host
    /// that frames the page outside VS Code: messages go to it and are heard from it only (without
    /// it, the page's own origin); in VS Code, when given, host messages must come from it too. A
    /// `hostOrigin` that is not an origin (`*` included) is an error.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = onMessage)] on_message: js_sys::Function,
        #[wasm_bindgen(js_name = storageKey)] storage_key: String,
        api: Option<js_sys::Object>,
        #[wasm_bindgen(js_name = hostOrigin)] host_origin: Option<String>,
    ) -> Result<HostLink, JsValue> {
        let window = web_sys::window().ok_or_else(|| super::error("the settings page needs a window"))?;
        let api = match api {
            Some(api) => Some(JsValue::from(api)),
            None => match method(&js_sys::global().into(), "acquireVsCodeApi") {
                Some(acquire) => Some(acquire.call0(&JsValue::NULL)?),
                None => None,
            },
        };
        let has_state = api.as_ref().is_some_and(|a| method(a, "getState").is_some() && method(a, "setState").is_some());
        let place = if has_state {
            DraftPlace::VsCodeState
        } else if matches!(window.local_storage(), Ok(Some(_))) {
            // gloo-storage throws where storage is refused (a sandboxed frame): look first.
            DraftPlace::LocalStorage
        } else {
            DraftPlace::Memory
        };
        let host_origin = host_origin.map(|o| origin_of(&o)).transpose()?;
        let target_origin = host_origin.clone().unwrap_or_else(|| "/".to_owned());
        // Outside VS Code the host is the parent frame of the named origin (the page's own by
        // default); in VS Code it is VS Code's own frame, of whatever origin it serves webviews from.
        let heard_from = match (&api, host_origin) {
            (_, Some(origin)) => Some(origin),
            (Some(_), None) => None,
            (None, None) => Some(window.origin()),
        };
        let listener = EventListener::new(&window, "message", move |event| {
            let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
            if !from_host(event, heard_from.as_deref()) {
                return;
            }
            let data = event.data();
            if is_host_message(&data) {
                // A throwing handler must not stop later messages: report it and go on.
                if let Err(e) = on_message.call1(&JsValue::NULL, &data) {
                    web_sys_console_error(&e);
                }
            }
        });
        Ok(HostLink { api, target_origin, place, key: storage_key, memory: RefCell::new(None), _listener: listener })
    }

    /// Sends a message to the host: through VS Code's API, else to the parent frame, addressed to
    /// the host's origin (a parent of any other origin does not receive it).
    pub fn post(&self, message: JsValue) -> Result<(), JsValue> {
        if let Some(post) = self.api.as_ref().and_then(|a| method(a, "postMessage").map(|f| (a, f))) {
            post.1.call1(post.0, &message)?;
            return Ok(());
        }
        let window = web_sys::window().ok_or_else(|| super::error("the settings page needs a window"))?;
        match window.parent()? {
            Some(parent) if parent != window => parent.post_message(&message, &self.target_origin),
            _ => Err(super::error("no host to post to: not in a VS Code webview and not in a frame")),
        }
    }

    /// Whether the page runs in a VS Code webview (its API was acquired).
    #[wasm_bindgen(getter, js_name = inVsCode)]
    pub fn in_vs_code(&self) -> bool {
        self.api.is_some()
    }

    /// Where drafts are kept: `vscodeState`, `localStorage` or `memory`.
    #[wasm_bindgen(getter, js_name = draftStorage)]
    pub fn draft_storage(&self) -> String {
        match self.place {
            DraftPlace::VsCodeState => "vscodeState",
            DraftPlace::LocalStorage => "localStorage",
            DraftPlace::Memory => "memory",
        }
        .to_owned()
    }

    /// The stored draft state, or `undefined`.
    #[wasm_bindgen(js_name = loadDraft)]
    pub fn load_draft(&self) -> JsValue {
        match self.place {
            DraftPlace::VsCodeState => self
                .api
                .as_ref()
                .and_then(|a| method(a, "getState").and_then(|f| f.call0(a).ok()))
                .filter(|v| !v.is_null())
                .unwrap_or(JsValue::UNDEFINED),
            DraftPlace::LocalStorage => LocalStorage::get::<serde_json::Value>(&self.key)
                .ok()
                .and_then(|value| serde_json::to_string(&value).ok())
                .and_then(|text| js_sys::JSON::parse(&text).ok())
                .unwrap_or(JsValue::UNDEFINED),
            DraftPlace::Memory => self.memory.borrow().clone().unwrap_or(JsValue::UNDEFINED),
        }
    }

    /// Keeps the draft state (any JSON-like value) until the panel is reloaded; a value that
    /// cannot be stored is an error.
    #[wasm_bindgen(js_name = saveDraft)]
    pub fn save_draft(&self, state: JsValue) -> Result<(), JsValue> {
        match self.place {
            DraftPlace::VsCodeState => {
                let api = self.api.as_ref().ok_or_else(|| super::error("no VS Code API"))?;
                let set = method(api, "setState").ok_or_else(|| super::error("no setState"))?;
                set.call1(api, &state)?;
            }
            DraftPlace::LocalStorage => {
                let text = js_sys::JSON::stringify(&state)?.as_string().unwrap_or_default();
                let value: serde_json::Value =
                    serde_json::from_str(&text).map_err(|e| super::error(&format!("the draft cannot be stored: {e}")))?;
                LocalStorage::set(&self.key, value).map_err(|e| super::error(&format!("the draft cannot be stored: {e}")))?;
            }
            DraftPlace::Memory => *self.memory.borrow_mut() = Some(state),
        }
        Ok(())
    }

    /// Forgets the stored draft state.
    #[wasm_bindgen(js_name = clearDraft)]
    pub fn clear_draft(&self) -> Result<(), JsValue> {
        match self.place {
            DraftPlace::VsCodeState => {
                if let Some((api, set)) = self.api.as_ref().and_then(|a| method(a, "setState").map(|f| (a, f))) {
                    set.call1(api, &JsValue::UNDEFINED)?;
                }
            }
            DraftPlace::LocalStorage => LocalStorage::delete(&self.key),
            DraftPlace::Memory => *self.memory.borrow_mut() = None,
        }
        Ok(())
    }
}

fn web_sys_console_error(value: &JsValue) {
    let console = get(&js_sys::global().into(), "console");
    if let Some((console, error)) = console.as_ref().and_then(|c| method(c, "error").map(|f| (c, f))) {
        let _ = error.call1(console, value);
    }
}

/// Runs a callback once calls to [`Debouncer::schedule`] have paused for `delay` milliseconds.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Debouncer {
    delay: u32,
    callback: js_sys::Function,
    pending: Rc<RefCell<Option<Timeout>>>,
}

#[wasm_bindgen]
impl Debouncer {
    /// A debouncer for `callback`, run `delay` milliseconds after the last `schedule()`.
    #[wasm_bindgen(constructor)]
    pub fn new(delay: u32, callback: js_sys::Function) -> Debouncer {
        Debouncer { delay, callback, pending: Rc::new(RefCell::new(None)) }
    }

    /// (Re)starts the wait: the callback runs once, `delay` ms from now, unless scheduled again.
    pub fn schedule(&self) {
        let pending = Rc::clone(&self.pending);
        let callback = self.callback.clone();
        let timeout = Timeout::new(self.delay, move || {
            pending.borrow_mut().take();
            if let Err(e) = callback.call0(&JsValue::NULL) {
                web_sys_console_error(&e);
            }
        });
        // Replacing the previous timeout drops it, which cancels it.
        *self.pending.borrow_mut() = Some(timeout);
    }

    /// Runs a pending callback now (before a save, say); does nothing when none is pending.
    pub fn flush(&self) -> Result<(), JsValue> {
        let pending = self.pending.borrow_mut().take();
        if let Some(timeout) = pending {
            timeout.cancel();
            self.callback.call0(&JsValue::NULL)?;
        }
        Ok(())
    }

    /// Drops a pending callback.
    pub fn cancel(&self) {
        if let Some(timeout) = self.pending.borrow_mut().take() {
            timeout.cancel();
        }
    }

    /// Whether a callback is waiting to run.
    #[wasm_bindgen(getter)]
    pub fn pending(&self) -> bool {
        self.pending.borrow().is_some()
    }
}
