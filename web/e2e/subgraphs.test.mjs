// End-to-end tests of subgraphs, Send and Command in the visualizer: a subgraph's
// checkpoints expanded in place (its namespace framed under the checkpoint whose task
// ran it), a fork through the subgraph's config, a resume from the parent, a Send
// fan-out's tasks, and the topology's subgraph boxes, Send and goto edges.
// Screenshots of each new scenario go to web/e2e/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite } from './harness.mjs';

const open = suite();

/** The expand toggle of checkpoint `label` (shown when its task ran a subgraph). */
const toggle = (app, label) => app.page.locator(`svg.dag [data-expand="${label}"]`);
const frames = (app) => app.page.locator('svg.dag g.frame');
const namespaceOf = async (app, label) => {
  await app.select(label);
  return (await app.inspector.getByTestId('namespace').textContent()).trim();
};

test('research subgraph: expand, fork through the subgraph config, resume from the parent, replay the parent', async () => {
  const app = await open();
  await app.pickScenario('research');
  await app.run('{"log": []}');
  await app.waitForCount(3);
  // The interrupt inside the subgraph paused the parent at c2 (next = research).
  assert.equal(await app.name('c2'), 'Checkpoint c2, step 1, loop, next: research, HEAD');
  assert.equal(await toggle(app, 'c1').count(), 0, 'only a checkpoint whose task ran a subgraph expands');
  assert.equal(await frames(app).count(), 0);

  // Expand c2 in place: the subgraph's own checkpoints, s0 … s3, in a frame labelled with its namespace.
  await toggle(app, 'c2').click();
  await app.waitForCount(7);
  assert.equal(await frames(app).count(), 1);
  const ns = await frames(app).first().getAttribute('data-ns');
  assert.match(ns, /^research:[0-9a-f-]{36}$/, 'namespace = node:task_id');
  assert.equal(await toggle(app, 'c2').getAttribute('aria-expanded'), 'true');
  assert.equal(await app.name('s0'), 'Checkpoint s0, step -1, input, next: __start__');
  assert.equal(await app.name('s3'), 'Checkpoint s3, step 2, loop, next: approve');
  for (const s of ['s0', 's1', 's2', 's3']) assert.equal(await namespaceOf(app, s), ns, `${s} lives in ${ns}`);
  assert.equal(await namespaceOf(app, 'c2'), '"" (root)');
  // Rows: the group comes right after its owner, before the root goes on.
  const rows = await app.page.locator('svg.dag g.node').evaluateAll((ns) => ns.map((n) => n.dataset.label));
  assert.deepEqual(rows, ['c0', 'c1', 'c2', 's0', 's1', 's2', 's3']);
  // The paused subgraph task carries the interrupt; the parent's task names the namespace.
  await app.select('s3');
  await app.inspector.getByText('interrupted: "Approve the draft?"').waitFor();
  await app.inspector.getByTestId('subgraph-note').waitFor();
  assert.equal(await app.button('Replay').isDisabled(), true, 'replay is the parent checkpoint\'s action');

  // Fork s3 through the subgraph's config: an update checkpoint inside the namespace.
  const dialog = await app.fork('{"draft": "Draft v2"}');
  await dialog.getByText("through the subgraph's config").waitFor();
  await dialog.getByText('Resulting next (inside the subgraph): approve').waitFor();
  assert.equal(await dialog.getByRole('button', { name: 'Apply and run' }).count(), 0);
  await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
  await app.waitForCount(8);
  assert.equal(await app.name('s4'), 'Checkpoint s4, step 3, update, next: approve');
  assert.equal(await app.parentOf('s4'), 's3');
  assert.equal(await namespaceOf(app, 's4'), ns, 'the update is written in the subgraph namespace');
  const short = ns.slice(0, 'research:'.length + 6);
  let log = await app.logLines();
  assert.ok(log.some((l) => l.startsWith(`update_state(s3 in ${short}, {"draft":"Draft v2"}) → s4`)), log.join('\n'));
  await app.shot('research-subgraph');

  // Resume from the parent: the subgraph continues from the edit, in the same namespace, then publish runs.
  await app.select('s4');
  await app.inspector.getByText('Resumes from the parent').waitFor();
  await app.inspector.getByText('invoke(Command(resume=true), c2)').waitFor();
  await app.button('Resume').click();
  await app.waitForCount(11);
  assert.equal(await app.name('s5'), 'Checkpoint s5, step 4, loop, next: done');
  assert.equal(await app.parentOf('s5'), 's4');
  assert.equal(await namespaceOf(app, 's5'), ns, 'no new namespace: the same task resumed');
  assert.equal(await frames(app).count(), 1);
  assert.equal(await app.name('c3'), 'Checkpoint c3, step 2, loop, next: publish');
  assert.equal(await app.parentOf('c3'), 'c2');
  assert.match(await app.name('c4'), /^Checkpoint c4, step 3, loop, next: done, HEAD$/);
  await app.select('c4');
  await app.inspector.getByText('"Draft v2"').first().waitFor();
  log = await app.logLines();
  assert.ok(log.some((l) => l.startsWith('invoke(Command(resume=true), c2) → s5 … c4')), log.join('\n'));
  const rowsAfter = await app.page.locator('svg.dag g.node').evaluateAll((ns) => ns.map((n) => n.dataset.label));
  assert.deepEqual(rowsAfter, ['c0', 'c1', 'c2', 's0', 's1', 's2', 's3', 's4', 's5', 'c3', 'c4']);

  // Replay the parent's checkpoint: the subgraph re-runs from scratch in a new namespace.
  await app.select('c2');
  await app.replay();
  await app.waitForCount(12);
  assert.match(await app.name('c5'), /^Checkpoint c5, step 2, fork, next: research/);
  await toggle(app, 'c5').click();
  await app.waitForCount(16);
  assert.equal(await frames(app).count(), 2);
  const second = await frames(app).nth(1).getAttribute('data-ns');
  assert.match(second, /^research:/);
  assert.notEqual(second, ns, 'a new task id, a new namespace');
  assert.equal(await app.name('s6'), 'Checkpoint s6, step -1, input, next: __start__');
  await app.shot('research-replay');

  // Collapse the first group: its rows go, the selection inside it falls back to its owner.
  await app.select('s1');
  await toggle(app, 'c2').click();
  await app.waitForCount(10);
  assert.equal(await app.selectedLabel(), 'c2');
  assert.equal(await frames(app).count(), 1);
});

test('map-reduce: a Send fan-out shows its tasks on one checkpoint, each with its argument', async () => {
  const app = await open();
  await app.pickScenario('map-reduce');
  await app.run('{"notes": []}');
  await app.waitForCount(5);
  assert.equal(await app.name('c2'), 'Checkpoint c2, step 1, loop, next: 3 × worker');
  await app.select('c2');
  await app.inspector.getByTestId('fan-out').getByText('Send fan-out: 3 tasks').waitFor();
  for (const topic of ['cats', 'owls', 'bees']) {
    await app.inspector.getByText(`Send arg {"topic":"${topic}"}`).waitFor();
  }
  assert.equal(await app.name('c3'), 'Checkpoint c3, step 2, loop, next: reduce');
  const send = app.page.locator('svg.topology path.topo-edge.send');
  assert.equal(await send.count(), 1);
  assert.equal(await send.getAttribute('data-to'), 'worker');
  await app.page.locator('svg.topology').getByText('Send × topics').waitFor();
  await app.shot('map-reduce');
  // Replaying the fan-out checkpoint runs all three workers again.
  await app.replay();
  await app.waitForCount(8);
  assert.match(await app.name('c5'), /^Checkpoint c5, step 2, fork, next: 3 × worker/);
});

test('handoff: goto destinations are dashed arrows; the agents hand off without edges', async () => {
  const app = await open();
  await app.pickScenario('handoff');
  await app.run('{"log": []}');
  await app.waitForCount(5);
  assert.equal(await app.name('c2'), 'Checkpoint c2, step 1, loop, next: billing');
  assert.equal(await app.name('c3'), 'Checkpoint c3, step 2, loop, next: support, survey');
  const gotos = await app.page
    .locator('svg.topology path.topo-edge.goto')
    .evaluateAll((ps) => ps.map((p) => `${p.dataset.from}→${p.dataset.to}`));
  assert.deepEqual(gotos, ['triage→billing', 'billing→support', 'billing→survey']);
  // Fork as billing: update_state follows billing's edges (none), never its goto.
  await app.select('c2');
  const dialog = await app.fork('{"log": ["billing: escalated"]}', 'billing');
  await dialog.getByText('Resulting next: done').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await app.select('c3');
  await app.shot('handoff');
});

test('topology: a subgraph node is a box that opens to show its own nodes', async () => {
  const app = await open();
  await app.pickScenario('research');
  const box = app.page.locator('svg.topology g.topo-node.subgraph[data-node="research"]');
  await box.waitFor();
  assert.equal(await app.page.locator('svg.topology [data-node="research/search"]').count(), 0);
  await box.click();
  for (const n of ['search', 'write', 'approve']) {
    await app.page.locator(`svg.topology [data-node="research/${n}"]`).waitFor();
  }
  // The selection's next is lit inside the subgraph it belongs to.
  await app.run('{"log": []}');
  await app.waitForCount(3);
  await toggle(app, 'c2').click();
  await app.waitForCount(7);
  await app.select('s3');
  await app.page.locator('svg.topology g.topo-node.lit[data-node="research/approve"]').waitFor();
  // The box itself is lit: the selection is inside that subgraph.
  await app.page.locator('svg.topology g.topo-node.subgraph.lit[data-node="research"]').waitFor();
  await app.shot('research-topology');
  // Its title bar closes it (the inner nodes cover the rest of the box).
  await box.click({ position: { x: 12, y: 8 } });
  assert.equal(await app.page.locator('svg.topology [data-node="research/search"]').count(), 0);
});
