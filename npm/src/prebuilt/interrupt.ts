// LangGraph.js's human-in-the-loop interrupt types (prebuilt/interrupt.ts):
// what an agent passes to `interrupt()` to ask a person, and the answer it
// gets back when resumed (Agent Inbox's format). Types only.

/** What a person may do with an interrupt: ignore it, respond in text, edit the action, accept it. */
export interface HumanInterruptConfig {
  allow_ignore: boolean;
  allow_respond: boolean;
  allow_edit: boolean;
  allow_accept: boolean;
}

/** The action asked about (`"Approve XYZ action"`) and its arguments. */
export interface ActionRequest {
  action: string;
  args: Record<string, unknown>;
}

/** An interrupt asking a person: the action, what they may do, and a description. */
export interface HumanInterrupt {
  action_request: ActionRequest;
  config: HumanInterruptConfig;
  description?: string;
}

/** A person's answer: `accept` / `ignore` (args `null`), `response` (a text), `edit` (the edited action). */
export type HumanResponse = {
  type: "accept" | "ignore" | "response" | "edit";
  args: null | string | ActionRequest;
};
