//! Lesson mode: the guided tour of [`crate::lesson`]. Each step asks for
//! predictions (multiple choice), runs the step's engine calls on the page's
//! thread (so the tree and the log grow as usual), then checks each
//! prediction against what the engine did.

use leptos::prelude::*;

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
    let answer = move |q: usize, c: usize| {
        lesson.update(|l| {
            if let Some(l) = l {
                l.answer(q, c);
            }
        });
    };
    let body = move || {
        let Some(l) = lesson.get() else {
            return view! {
                <p class="small">"A guided tour of the seed walkthrough: predict, run, check. It starts a new chat thread."</p>
                <button type="button" class="primary" on:click=start>"Start the lesson"</button>
            }
            .into_any();
        };
        let Some(step) = l.step() else {
            return view! {
                <p>"Done: every step of the tour. Keep exploring the tree, or start again."</p>
                <button type="button" on:click=start>"Start again"</button>
            }
            .into_any();
        };
        let ran = l.result().cloned();
        let checks = l.checks();
        let questions = l
            .questions()
            .iter()
            .enumerate()
            .map(|(qi, q)| {
                let picked = l.answers().get(qi).copied().flatten();
                let verdict = ran.as_ref().map(|e| {
                    let right = q.ask.answer(e);
                    if checks.get(qi).copied().unwrap_or(false) {
                        view! { <p class="ok">"✓ right: " <b class="mono">{right}</b></p> }.into_any()
                    } else {
                        view! { <p class="error">"✗ the engine did: " <b class="mono">{right}</b></p> }.into_any()
                    }
                });
                let done = ran.is_some();
                view! {
                    <fieldset class="ask">
                        <legend>{q.prompt.clone()}</legend>
                        {q.choices.iter().enumerate().map(|(ci, c)| view! {
                            <label class="choice">
                                <input type="radio" name=format!("lesson-q{qi}") prop:checked=picked == Some(ci) disabled=done
                                    on:change=move |_| answer(qi, ci) />
                                <span class="mono">{c.clone()}</span>
                            </label>
                        }).collect_view()}
                        {verdict}
                    </fieldset>
                }
            })
            .collect_view();
        let can_run = l.all_answered() && ran.is_none();
        view! {
            <h3 class="lesson-title">{step.title}</h3>
            <p class="small">{step.instruction}</p>
            {l.error().map(|e| view! { <p class="error" role="alert">{e.to_owned()}</p> })}
            {questions}
            {if ran.is_some() {
                view! {
                    <p class="lesson-note small"><b>"Why: "</b>{step.lesson}</p>
                    <button type="button" class="primary" on:click=next>"Next step"</button>
                }.into_any()
            } else {
                view! { <button type="button" class="primary" disabled=!can_run on:click=run>"Run step"</button> }.into_any()
            }}
        }
        .into_any()
    };
    view! {
        <section class="lesson" aria-label="Lesson">
            <h2 class="panel-title">"Lesson"</h2>
            {body}
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
        </section>
    }
}
