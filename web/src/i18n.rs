//! The app's two languages, English and Simplified Chinese, and the one
//! catalogue of every string the app shows.
//!
//! [`Strings`] has one field per message; `en::EN` and `zh::ZH` fill it,
//! one file per language, so a message missing from a language does not
//! compile. Messages with values use `{name}` placeholders, filled by
//! [`fill`]; the tests below check that both languages use the same
//! placeholders and that no component writes user-visible text itself.
//!
//! Engine identifiers stay as they are in both languages (`update_state`,
//! `as_node`, `source=fork`, node names), and LangGraph's error texts are
//! shown as LangGraph writes them.

mod en;
mod zh;

use std::fmt::Display;

/// A language of the UI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Every language, in the order the switch offers them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The short code of the URL (`?lang=zh|en`) and of the saved choice.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The BCP 47 tag of `<html lang>` (screen readers and CJK fonts read it).
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The language's own name, as the switch shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }

    /// The language a tag asks for (`zh`, `zh-CN`, `zh-Hans-CN`, `en-GB`, …);
    /// `None` for a language the app does not have.
    pub fn parse(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The first of `tags` the app has, in order (the URL's `?lang=`, the
    /// saved choice, then the browser's languages); English otherwise.
    pub fn pick<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter().find_map(Lang::parse).unwrap_or(Lang::En)
    }

    /// The catalogue of this language.
    pub fn t(self) -> &'static Strings {
        match self {
            Lang::En => &en::EN,
            Lang::Zh => &zh::ZH,
        }
    }
}

/// `template` with each `{name}` replaced by its value from `args`.
/// Placeholders without a value stay as they are (a test keeps the
/// catalogues and the call sites in step).
pub fn fill(template: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    for piece in pieces(template) {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Slot(name) => match args.iter().find(|(n, _)| *n == name) {
                Some((_, v)) => out.push_str(&v.to_string()),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
        }
    }
    out
}

/// `one` when `n` is 1, else `many` with `{n}` filled: a count in words
/// (`1 branch`, `3 branches`).
pub fn count(one: &str, many: &str, n: usize) -> String {
    if n == 1 {
        one.to_owned()
    } else {
        fill(many, &[("n", &n)])
    }
}

/// A piece of a template: literal text, or a `{name}` placeholder that a
/// view fills with markup (a `<code>` call, a mono label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text shown as it is.
    Text(&'a str),
    /// A placeholder's name.
    Slot(&'a str),
}

/// `template` cut into text and placeholders, in order (empty texts left out).
pub fn pieces(template: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        out.push(Piece::Slot(&after[..close]));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// The `{name}` placeholders of a template, in order.
pub fn placeholders(template: &str) -> Vec<&str> {
    pieces(template)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Slot(name) => Some(name),
            Piece::Text(_) => None,
        })
        .collect()
}

/// The words of one lesson step.
pub struct StepText {
    /// Heading (`1. Two rounds of chat`).
    pub title: &'static str,
    /// What the learner is about to do, and the exact engine calls.
    pub instruction: &'static str,
    /// The misconception the step takes apart, shown after it ran.
    pub lesson: &'static str,
}

/// Declares [`Strings`] with one `&'static str` field per message, and
/// [`Strings::entries`] to list them (for the tests).
macro_rules! catalogue {
    ($($(#[doc = $doc:literal])+ $key:ident,)*) => {
        /// Every string the app shows, in one language.
        pub struct Strings {
            $($(#[doc = $doc])+ pub $key: &'static str,)*
            /// The lesson's steps, in the order of [`crate::lesson::STEPS`].
            pub lesson_steps: &'static [StepText],
        }

        impl Strings {
            /// `(key, text)` of every message, in declaration order, then
            /// the lesson's steps (`lesson_steps[i].title`, …).
            pub fn entries(&self) -> Vec<(String, &'static str)> {
                let mut out = vec![$((stringify!($key).to_owned(), self.$key),)*];
                for (i, s) in self.lesson_steps.iter().enumerate() {
                    out.push((format!("lesson_steps[{i}].title"), s.title));
                    out.push((format!("lesson_steps[{i}].instruction"), s.instruction));
                    out.push((format!("lesson_steps[{i}].lesson"), s.lesson));
                }
                out
            }
        }
    };
}

catalogue! {
    /// Page title (the browser tab).
    page_title,
    /// Under the brand name.
    brand_sub,
    /// Label of the scenario picker (also its accessible name).
    scenario,
    /// The picker's entry for a graph loaded from the spec editor.
    custom_spec,
    /// About line of a graph from the spec editor.
    custom_about,
    /// Lesson toggle, closed.
    lesson_open,
    /// Lesson toggle, open.
    lesson_close,
    /// Export button.
    export,
    /// Export button's tooltip.
    export_title,
    /// Import button.
    import,
    /// Accessible name of the hidden file input.
    import_file,
    /// Reset button.
    reset,
    /// Reset button's tooltip.
    reset_title,
    /// Busy note while a file is read: `{name}`.
    importing,
    /// localStorage is full.
    storage_full,
    /// Accessible name of the language switch.
    language,
    /// The JSON input box of non-chat graphs.
    input_json,
    /// Run button.
    run,
    /// The chat message box (accessible name).
    message,
    /// The chat message box's placeholder.
    message_placeholder,
    /// Send button.
    send,
    /// Sending an empty message.
    type_first,
    /// Bad JSON in the input box: `{error}`.
    invalid_json,
    /// Under the input: the chat sends to a branch's tip.
    sends_to_tip,
    /// Under the input: runs continue from HEAD.
    continues_from_head,
    /// Log panel (accessible name).
    log,
    /// Log panel's heading.
    log_title,
    /// Empty log.
    log_empty,
    /// Spec editor's summary and textarea name.
    spec_title,
    /// Spec editor's load button.
    spec_load,
    /// Spec editor's note.
    spec_note,
    /// Chat panel (accessible name).
    chat,
    /// Chat heading: `{chain}` is `chat_head_chain` or `chat_other_branch`.
    chat_title,
    /// The chat shows the HEAD chain.
    chat_head_chain,
    /// The chat shows another branch.
    chat_other_branch,
    /// Empty chat.
    chat_empty,
    /// Branch switcher of message `{n}` (accessible name).
    chat_branches_of,
    /// Previous branch (accessible name).
    chat_prev_branch,
    /// Next branch (accessible name).
    chat_next_branch,
    /// Regenerate button on an AI message.
    chat_regenerate,
    /// Its tooltip.
    chat_regenerate_title,
    /// Edit button on a human message.
    chat_edit,
    /// Its tooltip.
    chat_edit_title,
    /// The edit box (accessible name).
    chat_edited,
    /// Save an edit.
    save,
    /// Cancel an edit.
    cancel,
    /// The history player (accessible name).
    scrub,
    /// Go to the branch's root.
    scrub_root,
    /// One step back.
    scrub_back,
    /// Play.
    scrub_play,
    /// Play's tooltip.
    scrub_play_title,
    /// Pause.
    scrub_pause,
    /// One step forward.
    scrub_forward,
    /// Go to the branch's tip.
    scrub_tip,
    /// The slider (accessible name).
    scrub_position,
    /// The speed menu (accessible name).
    scrub_speed,
    /// The speed menu's tooltip.
    scrub_speed_title,
    /// Actions box (accessible name).
    actions,
    /// Actions heading with nothing selected.
    actions_none,
    /// Actions heading: `{label}`.
    actions_on,
    /// Replay button.
    replay,
    /// What Replay does.
    replay_note,
    /// Fork button.
    fork,
    /// What Fork does.
    fork_note,
    /// Copy button.
    copy,
    /// What Copy does.
    copy_note,
    /// Resume button.
    resume,
    /// Resume value box (accessible name).
    resume_value,
    /// Bad resume value: `{error}`.
    invalid_resume,
    /// Preview heading: `{action}`.
    preview_of,
    /// A preview that fails: `{error}`.
    would_fail,
    /// A preview that writes nothing.
    creates_none,
    /// A preview's first checkpoint.
    new_checkpoint,
    /// No parent.
    root,
    /// More checkpoints after the first: `{n}`.
    then_more,
    /// A preview runs no node.
    nothing_runs,
    /// Nodes a preview runs: `{nodes}`.
    runs,
    /// Fork dialog heading: `{label}`.
    fork_title,
    /// Fork dialog intro: `{call}`, `{label}`.
    fork_intro,
    /// The update box (label and accessible name).
    state_update,
    /// The as_node menu (label and accessible name).
    as_node,
    /// as_node left to the engine.
    as_node_auto,
    /// Apply button.
    apply,
    /// Apply and run button.
    apply_and_run,
    /// What Apply does (followed by a preview).
    apply_effect,
    /// The next after the update.
    resulting_next,
    /// Nodes the update skips.
    skipped,
    /// What Apply and run does (followed by a preview).
    apply_run_effect,
    /// No node.
    nothing,
    /// Inspector panel (accessible name and heading).
    inspector,
    /// Nothing selected.
    inspector_empty,
    /// Parent link (accessible name): `{label}`.
    go_to_parent,
    /// Pin button.
    pin,
    /// Pin button's tooltip.
    pin_title,
    /// Unpin button.
    unpin,
    /// Inspector field.
    field_parent,
    /// Inspector field.
    field_created,
    /// Inspector field.
    field_tasks,
    /// Values heading.
    values,
    /// Diff heading: `{base}`.
    diff_vs,
    /// Diff base: the parent `{label}`.
    diff_parent,
    /// Diff base: the pinned `{label}`.
    diff_pinned,
    /// No checkpoint.
    none_paren,
    /// An empty diff.
    no_change,
    /// Metadata heading.
    metadata,
    /// No tasks.
    tasks_none,
    /// A task paused: `{values}`.
    task_interrupted,
    /// A task failed: `{error}`.
    task_error,
    /// A task finished: `{result}`.
    task_done,
    /// A task not run yet.
    task_pending,
    /// A checkpoint with nothing next.
    done,
    /// Topology panel heading.
    topology,
    /// Legend: highlighted next.
    legend_next,
    /// Legend: nodes a preview runs.
    legend_will_run,
    /// Sources heading.
    sources,
    /// What writes an input checkpoint.
    source_input,
    /// What writes a loop checkpoint.
    source_loop,
    /// What writes an update checkpoint.
    source_update,
    /// What writes a fork checkpoint.
    source_fork,
    /// Tree panel (accessible name).
    tree,
    /// Tree panel heading.
    tree_title,
    /// Tree stats, one checkpoint.
    checkpoints_one,
    /// Tree stats: `{n}` checkpoints.
    checkpoints_many,
    /// Tree stats, one branch.
    branches_one,
    /// Tree stats: `{n}` branches.
    branches_many,
    /// Zoom controls (accessible name).
    zoom,
    /// Zoom out (accessible name).
    zoom_out,
    /// Zoom out's tooltip.
    zoom_out_title,
    /// Zoom in (accessible name).
    zoom_in,
    /// Zoom in's tooltip.
    zoom_in_title,
    /// Reset view's tooltip.
    zoom_reset_title,
    /// The tree (accessible name, says the keys).
    tree_keys,
    /// Under the tree.
    tree_hint,
    /// A checkpoint (accessible name).
    checkpoint_name,
    /// A checkpoint's tooltip, after its name.
    checkpoint_tip,
    /// What HEAD is.
    head_note,
    /// Lesson panel (accessible name and heading).
    lesson,
    /// Before the lesson starts.
    lesson_intro,
    /// Start button.
    lesson_start,
    /// After the last step.
    lesson_done,
    /// Start again button.
    lesson_again,
    /// A right prediction (followed by the answer).
    lesson_right,
    /// A wrong prediction (followed by what the engine did).
    lesson_wrong,
    /// Before the step's explanation.
    lesson_why,
    /// Next step button.
    lesson_next,
    /// Run step button.
    lesson_run,
    /// Ends a sentence before another follows.
    period,
    /// Beside an engine error shown in LangGraph's words.
    engine_error_note,
    /// Why a run of a thread imported without its graph is refused.
    run_needs_graph,
    /// The agent_loop scenario in the picker.
    scenario_agent_loop,
    /// What the agent_loop scenario shows.
    scenario_agent_loop_about,
    /// The chat scenario in the picker.
    scenario_chat,
    /// What the chat scenario shows.
    scenario_chat_about,
    /// The counter scenario in the picker.
    scenario_counter,
    /// What the counter scenario shows.
    scenario_counter_about,
    /// The fanout scenario in the picker.
    scenario_fanout,
    /// What the fanout scenario shows.
    scenario_fanout_about,
    /// The handoff scenario in the picker.
    scenario_handoff,
    /// What the handoff scenario shows.
    scenario_handoff_about,
    /// The human_in_the_loop scenario in the picker.
    scenario_human_in_the_loop,
    /// What the human_in_the_loop scenario shows.
    scenario_human_in_the_loop_about,
    /// The map_reduce scenario in the picker.
    scenario_map_reduce,
    /// What the map_reduce scenario shows.
    scenario_map_reduce_about,
    /// The reducers scenario in the picker.
    scenario_reducers,
    /// What the reducers scenario shows.
    scenario_reducers_about,
    /// The research scenario in the picker.
    scenario_research,
    /// What the research scenario shows.
    scenario_research_about,
    /// Lesson question (Count).
    ask_count,
    /// Lesson question (Parent).
    ask_parent,
    /// Lesson question (Source).
    ask_source,
    /// Lesson question (Step).
    ask_step,
    /// Lesson question (Next).
    ask_next,
    /// Lesson question (Runs).
    ask_runs,
    /// Lesson question (Inputs).
    ask_inputs,
    /// Lesson question (Messages).
    ask_messages,
    /// Lesson question (Namespaces).
    ask_namespaces,
    /// Lesson question (SubSource).
    ask_sub_source,
    /// After the Fork heading inside a subgraph: `{ns}`.
    fork_through_sub,
    /// A selection missing from the thread.
    not_in_thread,
    /// After a parent id missing from the thread.
    parent_missing,
    /// A checkpoint without a parent.
    parent_none,
    /// The namespace field's tooltip.
    ns_field_title,
    /// A PUSH task's argument: `{arg}`.
    send_arg,
    /// Its tooltip.
    send_arg_title,
    /// A task's subgraph namespace: `{ns}`.
    task_ns,
    /// Its tooltip: `{ns}`.
    task_ns_title,
    /// A checkpoint's step (LangGraph's `metadata.step`, kept as the word step): `{n}`.
    step_n,
    /// A preview's first checkpoint, inside a subgraph.
    new_checkpoint_sub,
    /// More checkpoints inside subgraphs: `{n}`.
    and_in_subgraphs,
    /// Actions on a subgraph checkpoint: `{ns}`.
    subgraph_note,
    /// What Fork does inside a subgraph.
    fork_note_sub,
    /// What Resume does inside a subgraph.
    resume_from_parent,
    /// The next after an update inside a subgraph.
    resulting_next_sub,
    /// After an update inside a subgraph.
    then_resume,
    /// Inspector field: the namespace.
    field_ns,
    /// The root namespace.
    ns_root,
    /// A Send fan-out: `{n}` tasks.
    send_fan_out,
    /// The topology drawing (accessible name).
    topology_graph,
    /// After the topology heading when there are subgraphs.
    topology_open_hint,
    /// A subgraph box (accessible name): `{name}`.
    subgraph_box,
    /// Tree stats: one subgraph group open.
    groups_open_one,
    /// Tree stats: `{n}` subgraph groups open.
    groups_open_many,
    /// The expand toggle (accessible name): `{what}` (its visible text), `{label}`.
    expand_run,
    /// The expand toggle's tooltip: `{what}`.
    expand_run_title,
    /// A frame's legend (accessible name): `{ns}`.
    collapse_ns,
    /// A frame's tooltip: `{ns}`.
    ns_title,
    /// An action refused while a file is read: `{what}`.
    busy_wait,
    /// The Import dialog's heading.
    import_title,
    /// What the Import dialog accepts.
    import_intro,
    /// The paste box (label and accessible name).
    import_paste,
    /// The button that picks a file.
    import_open_file,
    /// The button that imports the pasted text.
    import_submit,
    /// Where an import error is: `{line}`, `{column}`.
    import_error_at,
    /// The JSON path of an import error: `{path}`.
    import_error_path,
    /// Before the error of a file: `{name}`.
    import_error_file,
    /// After an import error: what stays.
    import_kept,
    /// After an import: `{n}` checkpoints, `{format}`.
    import_opened,
    /// A format: Chronograph's export.
    format_chronograph,
    /// A format: an Agent Server's history.
    format_server,
    /// A format: Python's get_state_history dumped as JSON.
    format_python,
    /// A format: a LangGraph.js saver's list().
    format_js,
    /// The scenario picker's entry for an imported thread.
    imported_scenario,
    /// The toolbar note for an imported thread.
    imported_about,
    /// Why Replay waits on an imported thread: `{nodes}`.
    needs_graph,
    /// The button that opens the spec editor to attach a graph.
    attach_spec_open,
    /// The spec editor's button on an imported thread.
    spec_attach,
    /// What attaching does.
    spec_attach_note,
    /// A spec that does not fit: `{missing}`, `{nodes}`.
    attach_missing,
    /// After a spec is attached.
    attach_done,
    /// In the Fork dialog of an imported thread.
    fork_run_needs_graph,
    /// The toolbar button that opens the Connect dialog.
    connect,
    /// The Connect dialog's title.
    connect_title,
    /// What the Connect dialog does.
    connect_intro,
    /// The server URL field.
    connect_url,
    /// The API key field.
    connect_key,
    /// The button that lists the server's threads.
    connect_list,
    /// The search box over the thread list.
    connect_search,
    /// The thread list's heading: `{n}` threads shown, `{total}` listed.
    connect_threads,
    /// The server lists no thread (or none matches).
    connect_none,
    /// A thread row's button: `{id}`.
    connect_open_thread,
    /// While the thread list loads: `{url}`.
    connect_listing,
    /// While a thread's history loads: `{n}` checkpoints in `{pages}` requests.
    connect_loading,
    /// The thread list's status column.
    col_status,
    /// The thread list's graph column.
    col_graph,
    /// The thread list's last-update column.
    col_updated,
    /// The thread list's metadata column.
    col_metadata,
    /// The thread list's thread id column.
    col_thread,
    /// Where a thread came from: a LangGraph server, `{url}`.
    format_live_server,
    /// A server URL that is not http(s): `{url}`.
    server_bad_url,
    /// No answer from `{url}`: not running, or refused by the browser.
    server_unreachable,
    /// What to try after an unreachable server.
    server_unreachable_fix,
    /// 401/403: `{status}`.
    server_unauthorized,
    /// 404.
    server_not_found,
    /// Another failure status: `{status}`.
    server_status,
    /// A 2xx answer that is not what the API documents.
    server_bad_response,
    /// Before the server's own text.
    server_says,
    /// After a server error: what stays.
    server_kept,
    /// 409: the thread is running already.
    server_busy,
    /// 400/422: LangGraph refused the request: `{status}`.
    server_refused,
    /// The run started on the server and the graph raised.
    server_run_failed,
    /// While an action runs on the server: `{url}`.
    server_acting,
    /// The server `{url}` stopped answering mid-run: the outcome is unknown.
    server_dropped,
    /// After a dropped run: how to see what the server kept.
    server_dropped_fix,
    /// The opened thread is being followed while someone's run changes it.
    watch_following,
    /// The opened thread is idle and checked for changes.
    watch_idle,
    /// The watch status's accessible name.
    watch_label,
    /// In the Fork dialog of a server thread: where Apply and run runs.
    fork_run_on_server,
    /// The button that forks a server thread into a new thread.
    fork_new_thread,
    /// What forking into a new thread does.
    fork_new_thread_note,
    /// The Fork dialog's prediction for a server thread: `{next}`.
    server_prediction,
    /// Where the prediction cannot know: `{node}`'s router, `{targets}`.
    server_prediction_router,
    /// The prediction waits for a chosen node.
    server_prediction_auto,
    /// After Apply and run: the server did as predicted: `{predicted}`, `{actual}`.
    server_prediction_held,
    /// After Apply and run: it did not: `{predicted}`, `{actual}`.
    server_prediction_missed,
    /// Storage toggle, closed.
    storage_open,
    /// Storage toggle, open.
    storage_close,
    /// Storage panel (accessible name).
    storage_panel,
    /// Storage panel's heading.
    storage_title,
    /// What the estimates count.
    storage_note,
    /// The SQLite saver modelled.
    storage_sqlite,
    /// The PostgreSQL saver modelled.
    storage_postgres,
    /// Chronograph's own store.
    storage_chronograph,
    /// Totals of the whole thread: `{count}` checkpoints.
    storage_thread,
    /// Under the chart, the running totals at its tip: `{label}`, `{sqlite}`, `{postgres}`, `{chronograph}`.
    storage_chart,
    /// No checkpoints yet.
    storage_empty,
    /// The prune picker's label.
    prune_preview,
    /// Picker: no prune.
    prune_none,
    /// Picker: keep the latest.
    prune_latest,
    /// Picker: keep the last N.
    prune_last,
    /// Picker: keep HEAD's lineage.
    prune_lineage,
    /// Picker: a TTL.
    prune_newer,
    /// The number box of the picker.
    prune_n,
    /// What the prune would do: `{drop}`, `{all}`, `{sqlite}`, `{postgres}`, `{chronograph}`.
    prune_result,
    /// How the prune chooses.
    prune_rule,
    /// Appended to a checkpoint's accessible name while a prune preview drops it.
    prune_aria,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn both_languages_have_every_message_and_none_is_empty() {
        let (en, zh) = (Lang::En.t().entries(), Lang::Zh.t().entries());
        assert_eq!(en.len(), zh.len());
        for ((key, e), (key2, z)) in en.iter().zip(&zh) {
            assert_eq!(key, key2);
            assert!(!e.trim().is_empty(), "{key} is empty in English");
            assert!(!z.trim().is_empty(), "{key} is empty in Chinese");
        }
    }

    #[test]
    fn both_languages_use_the_same_placeholders() {
        for ((key, e), (_, z)) in Lang::En.t().entries().iter().zip(Lang::Zh.t().entries()) {
            let (pe, pz): (BTreeSet<_>, BTreeSet<_>) = (
                placeholders(e).into_iter().collect(),
                placeholders(z).into_iter().collect(),
            );
            assert_eq!(pe, pz, "{key}: {e:?} vs {z:?}");
        }
    }

    #[test]
    fn chinese_text_is_chinese_where_english_has_words() {
        // A Chinese message identical to the English one is a message nobody translated,
        // unless it is an engine identifier or a symbol, which stay as they are.
        let same: Vec<_> = Lang::En
            .t()
            .entries()
            .into_iter()
            .zip(Lang::Zh.t().entries())
            .filter(|((_, e), (_, z))| {
                e == z && e.chars().filter(|c| c.is_alphabetic()).count() > 3
            })
            // An engine identifier alone (`update_state`) is the same in both, and
            // so is LangGraph's `step` before a number.
            .filter(|((k, e), _)| {
                let identifier = e.contains('_') && !e.contains(' ');
                !identifier && k != "step_n"
            })
            .map(|((k, _), _)| k)
            .collect();
        assert!(same.is_empty(), "untranslated: {same:?}");
    }

    #[test]
    fn every_lesson_step_has_its_words_in_both_languages() {
        for lang in Lang::ALL {
            assert_eq!(
                lang.t().lesson_steps.len(),
                crate::lesson::STEPS.len(),
                "{lang:?}"
            );
            for (i, s) in lang.t().lesson_steps.iter().enumerate() {
                // Headings are numbered like the steps (the e2e tests find them so).
                assert!(
                    s.title.starts_with(&format!("{}. ", i + 1)),
                    "{lang:?} {}",
                    s.title
                );
            }
        }
    }

    #[test]
    fn a_language_comes_from_the_first_tag_the_app_has() {
        assert_eq!(Lang::parse("zh"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-Hans-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("ZH_tw"), Some(Lang::Zh));
        assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::parse(""), None);
        assert_eq!(Lang::pick(["fr", "zh-CN", "en"]), Lang::Zh);
        assert_eq!(Lang::pick(["de"]), Lang::En);
        assert_eq!(Lang::pick([]), Lang::En);
    }

    #[test]
    fn fill_replaces_named_placeholders_and_keeps_unknown_ones() {
        assert_eq!(
            fill("importing {name}", &[("name", &"t.json")]),
            "importing t.json"
        );
        assert_eq!(fill("{a}+{b}={a}{b}", &[("a", &1), ("b", &2)]), "1+2=12");
        assert_eq!(fill("keep {x} and {", &[]), "keep {x} and {");
        assert_eq!(placeholders("消息 {n} 的分支"), vec!["n"]);
        assert_eq!(
            pieces("对 {label} 的操作"),
            vec![
                Piece::Text("对 "),
                Piece::Slot("label"),
                Piece::Text(" 的操作")
            ]
        );
        assert_eq!(
            pieces("{call} writes"),
            vec![Piece::Slot("call"), Piece::Text(" writes")]
        );
    }

    #[test]
    fn components_write_no_user_visible_text_themselves() {
        // Text children (`>"Words"<`) and the attributes people read or hear (title,
        // aria-label, placeholder) must come from the catalogue. Symbols, engine
        // identifiers and CSS classes are fine.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/components");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".rs"))
            .collect();
        names.sort();
        assert!(names.len() > 10, "components found: {names:?}");
        let mut found = Vec::new();
        for name in &names {
            let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
            for (n, line) in text.lines().enumerate() {
                for bad in hard_coded(line) {
                    found.push(format!("{name}:{}: {bad}", n + 1));
                }
            }
        }
        assert!(found.is_empty(), "hard-coded text:\n{}", found.join("\n"));
    }

    /// Key names and other literals that look like words but nobody reads.
    const NOT_TEXT: &[&str] = &[
        "ArrowUp",
        "ArrowDown",
        "ArrowLeft",
        "ArrowRight",
        "Enter",
        "Escape",
        "Home",
        "End",
        "PageUp",
        "PageDown",
        "Chronograph",
        // LangGraph's own words, the same in every language.
        "HEAD",
        "id",
        "next",
    ];

    /// String literals on `line` that a reader would see or hear: a text child
    /// (`>"Words"`), a `title=`/`aria-label=`/`placeholder=` literal with a word, or any
    /// literal with a capitalised word (`"Lesson ▸"`, `"Sends to the tip…"`).
    fn hard_coded(line: &str) -> Vec<String> {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") || trimmed.starts_with("#[") {
            return Vec::new();
        }
        let has_word = |s: &str| {
            s.split(|c: char| !c.is_ascii_alphabetic())
                .any(|w| w.len() >= 2)
        };
        let capitalised = |s: &str| {
            s.split(|c: char| !c.is_ascii_alphabetic()).any(|w| {
                w.len() >= 2
                    && w.starts_with(|c: char| c.is_ascii_uppercase())
                    && w[1..].chars().any(|c| c.is_ascii_lowercase())
            })
        };
        let mut out = Vec::new();
        let bytes: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] != '"' {
                i += 1;
                continue;
            }
            let before: String = bytes[..i].iter().collect();
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != '"' {
                if bytes[j] == '\\' {
                    j += 1;
                }
                j += 1;
            }
            let lit: String = bytes[i + 1..j.min(bytes.len())].iter().collect();
            let text_child = before.trim_end().ends_with('>') && !before.trim_end().ends_with("=>");
            // An engine call shown as code (`invoke(None, {})`) is the same in every language.
            let code = lit.contains('(') && lit.ends_with(')');
            let read_attr = ["title=", "aria-label=", "placeholder="]
                .iter()
                .any(|a| before.ends_with(a));
            if !NOT_TEXT.contains(&lit.as_str())
                && !code
                && (((text_child || read_attr) && has_word(&lit)) || capitalised(&lit))
            {
                out.push(format!("\"{lit}\""));
            }
            i = j + 1;
        }
        out
    }
}
