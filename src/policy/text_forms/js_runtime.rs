//! What the core asks of the JavaScript runtime it runs in: Unicode normalization and the WHATWG
//! URL Standard's host parser, whose data the runtime already carries (ICU, its `URL`). Why the
//! wasm builds take them from here and native builds from crates: `text_forms.rs`, the module this
//! one serves.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The runtime's `URL` class (Node's, a browser's): the WHATWG URL Standard's parser.
    #[wasm_bindgen(js_name = URL)]
    type WhatwgUrl;

    #[wasm_bindgen(constructor, js_class = "URL", catch)]
    fn new(url: &str) -> Result<WhatwgUrl, JsValue>;

    #[wasm_bindgen(method, getter)]
    fn hostname(this: &WhatwgUrl) -> String;
}

/// `text.normalize(form)`: `form` is `"NFC"` or `"NFD"`, which never throw.
pub(crate) fn normalize(text: &str, form: &str) -> String {
    String::from(js_sys::JsString::from(text).normalize(form))
}

/// `new URL(url).hostname`, or `None` where the parser refuses the URL (it throws a TypeError).
pub(crate) fn url_hostname(url: &str) -> Option<String> {
    WhatwgUrl::new(url).ok().map(|parsed| parsed.hostname())
}
