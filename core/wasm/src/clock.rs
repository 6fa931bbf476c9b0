//! [`DateClock`]: `Date.now()` as the engine's clock (`SystemTime` does not
//! exist on `wasm32-unknown-unknown`).

use chronograph::clock::Clock;

/// Wall-clock time from JavaScript's `Date.now()` (millisecond resolution;
/// the engine's id generator keeps ids strictly increasing within a tick).
#[derive(Debug, Default, Clone, Copy)]
pub struct DateClock;

impl Clock for DateClock {
    fn now_unix_nanos(&self) -> u128 {
        let ms = js_sys::Date::now();
        if ms.is_finite() && ms > 0.0 {
            (ms * 1_000_000.0) as u128
        } else {
            0
        }
    }
}
