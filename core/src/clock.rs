//! Time and randomness, injected. `SystemTime` does not exist on
//! `wasm32-unknown-unknown`, and tests need ids and timestamps they can
//! predict, so every id the engine makes comes through an [`IdGenerator`]
//! built over a [`Clock`].

use std::cell::Cell;
use std::rc::Rc;

/// A source of wall-clock time.
pub trait Clock {
    /// Nanoseconds since the Unix epoch.
    fn now_unix_nanos(&self) -> u128;
}

/// The machine's clock (not available on `wasm32-unknown-unknown`, where the
/// JavaScript bindings inject `Date.now()` instead).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl Clock for SystemClock {
    fn now_unix_nanos(&self) -> u128 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    }
}

/// A deterministic clock: starts at a fixed instant and advances by a fixed
/// step every time it is read. Used by tests and wherever no real clock exists.
#[derive(Debug)]
pub struct ManualClock {
    now: Cell<u128>,
    step: u128,
}

impl ManualClock {
    /// 2026-01-01T00:00:00Z, advancing one millisecond per reading.
    pub fn new() -> Self {
        Self::starting_at(1_767_225_600_000_000_000, 1_000_000)
    }

    /// A clock that starts at `unix_nanos` and advances `step_nanos` per reading.
    pub fn starting_at(unix_nanos: u128, step_nanos: u128) -> Self {
        ManualClock {
            now: Cell::new(unix_nanos),
            step: step_nanos,
        }
    }
}

impl ManualClock {
    /// Moves the clock `nanos` forward (a test's way to let time pass).
    pub fn advance(&self, nanos: u128) {
        self.now.set(self.now.get() + nanos);
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for ManualClock {
    fn now_unix_nanos(&self) -> u128 {
        let t = self.now.get();
        self.now.set(t + self.step);
        t
    }
}

/// The clock a graph uses when none is given: the system clock natively, a
/// [`ManualClock`] on bare wasm32 (the JS bindings inject `Date.now()`).
pub fn default_clock() -> Rc<dyn Clock> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        Rc::new(SystemClock)
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        Rc::new(ManualClock::new())
    }
}

/// 100-ns ticks between 1582-10-15 (the UUID epoch) and 1970-01-01.
const UUID_EPOCH_OFFSET: u64 = 0x01B2_1DD2_1381_4000;

/// Makes checkpoint ids (UUIDv6, as LangGraph's `uuid6(clock_seq=step)`),
/// message ids (UUIDv4) and ISO-8601 timestamps from one clock and one
/// seeded random stream.
pub struct IdGenerator {
    clock: Rc<dyn Clock>,
    last_ticks: Cell<u64>,
    rng: Cell<u64>,
}

impl std::fmt::Debug for IdGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdGenerator")
            .field("last_ticks", &self.last_ticks.get())
            .finish()
    }
}

impl IdGenerator {
    /// A generator over `clock`, its random stream seeded from the clock.
    pub fn new(clock: Rc<dyn Clock>) -> Self {
        let seed = clock.now_unix_nanos() as u64;
        Self::with_seed(clock, seed)
    }

    /// A generator with an explicit random seed (fully deterministic with a
    /// [`ManualClock`]).
    pub fn with_seed(clock: Rc<dyn Clock>, seed: u64) -> Self {
        IdGenerator {
            clock,
            last_ticks: Cell::new(0),
            rng: Cell::new(seed ^ 0x9E37_79B9_7F4A_7C15),
        }
    }

    /// SplitMix64: small, fast, good enough for ids that only need to differ.
    pub fn next_u64(&self) -> u64 {
        let mut z = self.rng.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.rng.set(z);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Reads the clock once, returning `(uuid ticks, unix nanos)`, with ticks
    /// forced strictly above the previous reading so ids never tie.
    fn tick(&self) -> (u64, u128) {
        let nanos = self.clock.now_unix_nanos();
        let mut ticks = (nanos / 100) as u64 + UUID_EPOCH_OFFSET;
        if ticks <= self.last_ticks.get() {
            ticks = self.last_ticks.get() + 1;
        }
        self.last_ticks.set(ticks);
        let nanos = u128::from(ticks - UUID_EPOCH_OFFSET) * 100;
        (ticks, nanos)
    }

    /// A new checkpoint id and its timestamp. The id is a UUIDv6 whose clock
    /// sequence is `clock_seq & 0x3FFF` (LangGraph passes the step), so ids
    /// sort in creation order.
    pub fn checkpoint_id(&self, clock_seq: i64) -> (String, String) {
        let (ticks, nanos) = self.tick();
        let time_high = ticks >> 12;
        let time_low = ticks & 0xFFF;
        let seq = 0x8000 | ((clock_seq as u64) & 0x3FFF);
        let node = self.next_u64() & 0xFFFF_FFFF_FFFF;
        let bits = (u128::from(time_high & 0xFFFF_FFFF_FFFF) << 80)
            | (0x6000u128 << 64)
            | (u128::from(time_low) << 64)
            | (u128::from(seq) << 48)
            | u128::from(node);
        (format_uuid(bits), iso_timestamp(nanos))
    }

    /// A random UUIDv4 string (used for message ids).
    pub fn uuid4(&self) -> String {
        let hi = self.next_u64();
        let lo = self.next_u64();
        let bytes =
            ((u128::from(hi) << 64) | u128::from(lo)) & !(0xF000u128 << 64) | (0x4000u128 << 64);
        let bytes = bytes & !(0xC000u128 << 48) | (0x8000u128 << 48);
        format_uuid(bytes)
    }

    /// The current time as LangGraph writes it: `2026-11-29T23:04:06.575547+00:00`.
    pub fn timestamp(&self) -> String {
        iso_timestamp(self.clock.now_unix_nanos())
    }
}

/// Formats 128 bits as `8-4-4-4-12` lowercase hex. Written digit by digit
/// into one buffer: ids are made on every superstep, and `format!` was a
/// measurable share of one.
pub(crate) fn format_uuid(bits: u128) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(36);
    for (i, byte) in bits.to_be_bytes().iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0xF)]));
    }
    out
}

/// A number's decimal digits on the stack, zero-padded to at least
/// `width` (as `format!("{n:0width$}")`, for widths up to 32). The one digit
/// writer behind checkpoint timestamps, task ids and version texts, which
/// are made on every superstep and listed by the thousand: `format!`'s
/// padding goes through the formatting machinery character by character.
pub(crate) struct Digits {
    bytes: [u8; 32],
    start: usize,
}

impl Digits {
    /// `n`'s digits, left-padded with zeros to `width` (at most 32).
    pub(crate) fn new(mut n: u64, width: usize) -> Self {
        let mut bytes = [b'0'; 32];
        let mut start = bytes.len();
        loop {
            start -= 1;
            bytes[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        // The slots before `start` already hold zeros: padding is a move.
        let start = start.min(bytes.len() - width.min(bytes.len()));
        Digits { bytes, start }
    }

    /// The digits as ASCII bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[self.start..]
    }

    /// The digits as text.
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).expect("ASCII digits")
    }
}

/// ISO-8601 UTC with microseconds and `+00:00`, from Unix nanoseconds.
pub fn iso_timestamp(unix_nanos: u128) -> String {
    let micros = unix_nanos / 1_000;
    let secs = (micros / 1_000_000) as i64;
    let frac = (micros % 1_000_000) as u32;
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    if !(0..=9999).contains(&y) {
        return format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{frac:06}+00:00",
            sod / 3600,
            (sod / 60) % 60,
            sod % 60
        );
    }
    // Digit by digit, like `format_uuid`: one allocation per timestamp.
    let mut out = String::with_capacity(32);
    let parts: [(u64, usize, char); 7] = [
        (y as u64, 4, '-'),
        (u64::from(m), 2, '-'),
        (u64::from(d), 2, 'T'),
        ((sod / 3600) as u64, 2, ':'),
        ((sod / 60 % 60) as u64, 2, ':'),
        ((sod % 60) as u64, 2, '.'),
        (u64::from(frac), 6, '+'),
    ];
    for (value, width, sep) in parts {
        out.push_str(Digits::new(value, width).as_str());
        out.push(sep);
    }
    out.push_str("00:00");
    out
}

/// Milliseconds since the Unix epoch of an ISO-8601 timestamp as savers
/// write them (`2025-11-29T23:44:06.575547+00:00`, or with `Z`; a UTC
/// offset is applied), or `None` when it is not one. Retention reads a
/// checkpoint's age from its `ts` with this.
pub fn parse_iso_ms(ts: &str) -> Option<i64> {
    let num = |range: std::ops::Range<usize>| ts.get(range)?.parse::<i64>().ok();
    let bytes = ts.as_bytes();
    if bytes.len() < 19 || bytes[4] != b'-' || bytes[7] != b'-' || !matches!(bytes[10], b'T' | b' ')
    {
        return None;
    }
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, min, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let rest = &ts[19..];
    let (frac, zone) = match rest.strip_prefix('.') {
        Some(r) => r.split_at(r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len())),
        None => ("", rest),
    };
    let millis = frac.get(..frac.len().min(3)).map_or(0, |f| {
        f.parse::<i64>().unwrap_or(0) * 10_i64.pow(3 - f.len() as u32)
    });
    let offset_min = match zone {
        "" | "Z" => 0,
        z if z.len() == 6 && matches!(&z[..1], "+" | "-") => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            sign * (z[1..3].parse::<i64>().ok()? * 60 + z[4..6].parse::<i64>().ok()?)
        }
        _ => return None,
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let days = days_from_civil(y, m as u32, d as u32);
    let secs = days * 86_400 + h * 3_600 + min * 60 + s - offset_min * 60;
    Some(secs * 1_000 + millis)
}

/// Howard Hinnant's civil-to-days conversion (the inverse of [`civil_from_days`]).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's days-to-civil conversion (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A deterministic generator for unit tests: a [`ManualClock`] and `seed`.
#[cfg(test)]
pub(crate) fn test_ids(seed: u64) -> IdGenerator {
    IdGenerator::with_seed(Rc::new(ManualClock::new()), seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids() -> IdGenerator {
        IdGenerator::with_seed(
            Rc::new(ManualClock::starting_at(1_767_225_600_000_000_000, 0)),
            1,
        )
    }

    #[test]
    fn checkpoint_ids_carry_the_step_as_clock_sequence() {
        let g = ids();
        let (a, _) = g.checkpoint_id(-1);
        let (b, _) = g.checkpoint_id(0);
        let (c, _) = g.checkpoint_id(6);
        assert_eq!(&a[19..23], "bfff");
        assert_eq!(&b[19..23], "8000");
        assert_eq!(&c[19..23], "8006");
        assert_eq!(&a[14..15], "6", "version nibble");
    }

    #[test]
    fn checkpoint_ids_strictly_increase_within_one_clock_tick() {
        let g = ids(); // the clock never advances
        let mut prev = String::new();
        for step in [5, -1, 3, 0, 2, 1] {
            let (id, _) = g.checkpoint_id(step);
            assert!(id > prev, "{id} should sort after {prev}");
            prev = id;
        }
    }

    #[test]
    fn timestamps_are_iso_with_micros() {
        assert_eq!(
            iso_timestamp(1_764_459_846_575_547_000),
            "2025-11-29T23:44:06.575547+00:00"
        );
        assert_eq!(iso_timestamp(0), "1970-01-01T00:00:00.000000+00:00");
    }

    #[test]
    fn iso_timestamps_read_back_as_milliseconds() {
        let nanos = 1_764_459_846_575_547_000_u128;
        assert_eq!(parse_iso_ms(&iso_timestamp(nanos)), Some(1_764_459_846_575));
        assert_eq!(parse_iso_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_iso_ms("1970-01-01T01:00:00.5+01:00"), Some(500));
        assert_eq!(
            parse_iso_ms("2024-02-29T12:00:00.000Z"),
            Some(1_709_208_000_000)
        );
        assert_eq!(parse_iso_ms("not a time"), None);
        assert_eq!(parse_iso_ms("2024-13-01T00:00:00Z"), None);
    }

    #[test]
    fn digits_are_zero_padded_decimal_like_format() {
        for n in [0, 1, 9, 10, 99, 1234, 10u64.pow(16), u64::MAX - 1, u64::MAX] {
            for width in [0, 1, 2, 4, 6, 16, 20, 32] {
                assert_eq!(Digits::new(n, width).as_str(), format!("{n:0width$}"));
            }
        }
    }

    #[test]
    fn uuids_format_as_8_4_4_4_12_hex() {
        assert_eq!(
            format_uuid(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210),
            "01234567-89ab-cdef-fedc-ba9876543210"
        );
        assert_eq!(format_uuid(0), "00000000-0000-0000-0000-000000000000");
    }

    #[test]
    fn checkpoint_ids_keep_the_uuid6_layout() {
        // 2026-01-01T00:00:00Z in UUID ticks, split as RFC 9562 section 5.6.
        let g = ids();
        let (id, ts) = g.checkpoint_id(7);
        let ticks = 1_767_225_600_000_000_000u64 / 100 + UUID_EPOCH_OFFSET;
        let high = ticks >> 12;
        assert_eq!(&id[0..8], format!("{:08x}", high >> 16));
        assert_eq!(&id[9..13], format!("{:04x}", high & 0xFFFF));
        assert_eq!(&id[14..18], format!("6{:03x}", ticks & 0xFFF));
        assert_eq!(ts, "2026-01-01T00:00:00.000000+00:00");
    }

    #[test]
    fn timestamps_outside_four_digit_years_still_format() {
        assert!(iso_timestamp(400_000_000_000_000_000_000).starts_with("14645"));
    }

    #[test]
    fn uuid4_has_version_and_variant() {
        let u = ids().uuid4();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"));
    }
}
