//! The storage view's chart: the running total of estimated bytes along
//! a branch, one line per store, on a shared scale so the gap between a
//! saver that rewrites the whole state and one that appends is visible.

use leptos::prelude::*;

use crate::session::Cost;

/// Chart width and height in SVG units (it scales to the panel).
const WIDTH: f64 = 300.0;
const HEIGHT: f64 = 120.0;
/// Room left for the axis labels.
const PAD: f64 = 6.0;

/// Reads one store's bytes from a [`Cost`].
type Read = fn(&Cost) -> u64;

/// The three series, in drawing order: class and how to read one value.
pub const SERIES: [(&str, Read); 3] = [
    ("sqlite", |c| c.sqlite),
    ("postgres", |c| c.postgres),
    ("chronograph", |c| c.chronograph),
];

/// `points` as an SVG polyline: x evenly spread over the branch, y on a
/// linear scale from 0 to `max` (the top of the chart).
pub fn polyline(points: &[u64], max: u64) -> String {
    let n = points.len().max(2) - 1;
    let max = max.max(1) as f64;
    points
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let x = PAD + (WIDTH - 2.0 * PAD) * i as f64 / n as f64;
            let y = HEIGHT - PAD - (HEIGHT - 2.0 * PAD) * v as f64 / max;
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Bytes as people read them: `812 B`, `4.3 KB`, `12.0 MB` (powers of 1,000).
pub fn bytes(n: u64) -> String {
    match n {
        0..1_000 => format!("{n} B"),
        1_000..1_000_000 => format!("{:.1} KB", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", n as f64 / 1e6),
        _ => format!("{:.2} GB", n as f64 / 1e9),
    }
}

/// The chart of `series` (running totals along a branch). It is a
/// picture of the numbers printed under it, so assistive technology skips
/// it and reads those.
#[component]
pub fn StorageChart(
    /// Running totals, oldest checkpoint first.
    #[prop(into)]
    series: Signal<Vec<Cost>>,
) -> impl IntoView {
    let lines = move || {
        let s = series.get();
        let max = s
            .last()
            .map_or(0, |c| c.sqlite.max(c.postgres).max(c.chronograph));
        SERIES
            .iter()
            .map(|(class, read)| {
                let points: Vec<u64> = s.iter().map(read).collect();
                view! { <polyline class=format!("storage-line {class}") points=polyline(&points, max)></polyline> }
            })
            .collect_view()
    };
    view! {
        <svg class="storage-chart" aria-hidden="true"
            viewBox=format!("0 0 {WIDTH} {HEIGHT}") preserveAspectRatio="none">
            <line class="storage-axis" x1=PAD y1=HEIGHT - PAD x2=WIDTH - PAD y2=HEIGHT - PAD></line>
            {lines}
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polyline_spreads_points_over_the_width_and_scales_to_the_max() {
        assert_eq!(
            polyline(&[0, 50, 100], 100),
            "6.0,114.0 150.0,60.0 294.0,6.0"
        );
        assert_eq!(
            polyline(&[0], 0),
            "6.0,114.0",
            "one point and a zero scale still draw"
        );
    }

    #[test]
    fn bytes_read_in_powers_of_a_thousand() {
        assert_eq!(bytes(812), "812 B");
        assert_eq!(bytes(4_321), "4.3 KB");
        assert_eq!(bytes(12_000_000), "12.0 MB");
        assert_eq!(bytes(1_190_000_000), "1.19 GB");
    }
}
