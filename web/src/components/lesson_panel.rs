//! Lesson mode: the guided tour of [`crate::lesson`]. Each step asks for
//! predictions (multiple choice), runs the step's engine calls on the page's
//! thread (so the tree and the log grow as usual), then checks each
//! prediction against what the engine did.

use leptos::prelude::*;

use super::error_line::ErrorLine;
use super::lesson_question::question;
use crate::lesson::Lesson;
use crate::state::AppState;

/// The lesson panel (shown while `lesson_open`).
#[component]
pub fn LessonPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let lesson = RwSignal::new(None::<Lesson>);
    let error = RwSignal::new(None::<String>);
    let start = move |_| match Lesson::start() {
        Ok((l, session)) => {
            state.replace_session(session, "chat");
            lesson.set(Some(l));
            error.set(None);
        }
        Err(e) => error.set(Some(e.to_string())),
    };
    let run = move |_| {
        let Some(mut l) = lesson.get_untracked() else {
            return;
        };
        let r = state.act(|s| l.run(s));
        lesson.set(Some(l));
        error.set(r.err());
    };
    let next = move |_| {
        let Some(mut l) = lesson.get_untracked() else {
            return;
        };
        // A step on another scenario comes with a new thread of it.
        if let Some(fresh) = state.session.with_value(|s| l.advance(s)) {
            let id = l.step().map_or("chat", |s| s.scenario);
            state.replace_session(fresh, id);
        }
        lesson.set(Some(l));
    };
    let answer = Callback::new(move |(q, c): (usize, usize)| {
        lesson.update(|l| {
            if let Some(l) = l {
                l.answer(q, c);
            }
        });
    });
    let body = move || {
        let Some(l) = lesson.get() else {
            return view! {
                <p class="small">{move || state.t().lesson_intro}</p>
                <button type="button" class="primary" on:click=start>{move || state.t().lesson_start}</button>
            }
            .into_any();
        };
        let Some(_) = l.step() else {
            return view! {
                <p>{move || state.t().lesson_done}</p>
                <button type="button" on:click=start>{move || state.t().lesson_again}</button>
            }
            .into_any();
        };
        // The step's words in the current language (the catalogue lists them
        // in the order of lesson::STEPS).
        let words = &state.t().lesson_steps[l.index()];
        let ran = l.result().cloned();
        let checks = l.checks();
        let questions = l
            .questions()
            .iter()
            .enumerate()
            .map(|(qi, q)| {
                let picked = l.answers().get(qi).copied().flatten();
                let verdict = ran.as_ref().map(|e| {
                    let right = checks.get(qi).copied().unwrap_or(false);
                    (right, q.ask.answer(e))
                });
                question(state, qi, q, picked, verdict, answer)
            })
            .collect_view();
        let can_run = l.all_answered() && ran.is_none();
        view! {
            <h3 class="lesson-title">{words.title}</h3>
            <p class="small">{words.instruction}</p>
            {l.error().map(|e| view! { <ErrorLine text=e.to_owned()/> })}
            {questions}
            {if ran.is_some() {
                view! {
                    <p class="lesson-note small"><b>{state.t().lesson_why}</b>{words.lesson}</p>
                    <button type="button" class="primary" on:click=next>{state.t().lesson_next}</button>
                }.into_any()
            } else {
                view! { <button type="button" class="primary" disabled=!can_run on:click=run>{state.t().lesson_run}</button> }.into_any()
            }}
        }
        .into_any()
    };
    view! {
        <section class="lesson" aria-label=move || state.t().lesson>
            <h2 class="panel-title">{move || state.t().lesson}</h2>
            {body}
            {move || error.get().map(|e| view! { <ErrorLine text=e/> })}
        </section>
    }
}
