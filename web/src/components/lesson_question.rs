//! One prediction of a lesson step: the question, its choices as radio
//! buttons (locked once the step ran), and after the run whether the pick
//! matched what the engine did.

use leptos::prelude::*;

use crate::i18n::Strings;
use crate::lesson::Question;
use crate::state::AppState;

/// Question `qi`, with the learner's pick and, once the step ran, the
/// verdict: `(right, the right answer)`. A plain function, not a
/// component: the lesson panel calls it while it draws the step, so a
/// language switch draws the question again.
pub fn question(
    state: AppState,
    qi: usize,
    q: &Question,
    picked: Option<usize>,
    verdict: Option<(bool, String)>,
    answer: Callback<(usize, usize)>,
) -> impl IntoView {
    let done = verdict.is_some();
    let verdict = verdict.map(|(right, answer)| {
        if right {
            view! { <p class="ok">{state.t().lesson_right} <b class="mono">{answer}</b></p> }
                .into_any()
        } else {
            view! { <p class="error">{state.t().lesson_wrong} <b class="mono">{answer}</b></p> }
                .into_any()
        }
    });
    view! {
        <fieldset class="ask">
            <legend>{q.ask.prompt(state.t())}</legend>
            {q.choices.iter().enumerate().map(|(ci, c)| view! {
                <label class="choice">
                    <input type="radio" name=format!("lesson-q{qi}") prop:checked=picked == Some(ci) disabled=done
                        on:change=move |_| answer.run((qi, ci)) />
                    <span class="mono">{choice_text(state.t(), c)}</span>
                </label>
            }).collect_view()}
            {verdict}
        </fieldset>
    }
}

/// A choice as the page shows it: the lesson's own words (`none`,
/// `nothing`, `done`) in the current language; engine identifiers, node
/// names and numbers as they are.
fn choice_text(t: &Strings, choice: &str) -> String {
    match choice {
        "none" => t.tasks_none.to_owned(),
        "nothing" => t.nothing.to_owned(),
        "done" => t.done.to_owned(),
        other => other.to_owned(),
    }
}
