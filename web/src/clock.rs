//! The clock checkpoint ids and timestamps come from: `Date.now()` in the
//! browser, the system clock in native tests.

use chronograph::clock::Clock;
use std::rc::Rc;

/// Milliseconds from `Date.now()`, plus a counter so that readings in the
/// same millisecond still differ (ids must strictly increase).
#[cfg(target_arch = "wasm32")]
struct DateClock {
    last: std::cell::Cell<u128>,
}

#[cfg(target_arch = "wasm32")]
impl Clock for DateClock {
    fn now_unix_nanos(&self) -> u128 {
        let now = (js_sys::Date::now() as u128) * 1_000_000;
        let next = now.max(self.last.get() + 1_000);
        self.last.set(next);
        next
    }
}

/// The clock the app's graphs use.
pub fn browser_clock() -> Rc<dyn Clock> {
    #[cfg(target_arch = "wasm32")]
    {
        Rc::new(DateClock {
            last: std::cell::Cell::new(0),
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        Rc::new(chronograph::clock::SystemClock)
    }
}
