// The seed walkthrough on the chat scenario, shared by the served page's suite
// (visualizer.test.mjs) and the single-file page's (single_file.test.mjs): two rounds,
// a replay from step 1, a replay of the finished first round, the first message edited
// as `booking` and then run; 8, 10, 11, 12, 13 checkpoints with the right parents.
import assert from 'node:assert/strict';

/** Runs the walkthrough on a fresh app; screenshots are named `${prefix}...`. */
export async function seedWalkthrough(app, prefix = '') {
  assert.equal(await app.scenario.inputValue(), 'chat');
  assert.equal(await app.count(), 0);

  await app.send('Is there a slot tomorrow morning?');
  await app.send('Book it for 10 am please');
  assert.equal(await app.count(), 8, 'two rounds → 8 checkpoints');
  assert.equal(await app.name('c0'), 'Checkpoint c0, step -1, input, next: __start__');
  assert.equal(await app.name('c2'), 'Checkpoint c2, step 1, loop, next: reply');
  assert.equal(await app.name('c4'), 'Checkpoint c4, step 3, input, next: __start__');
  assert.equal(await app.headLabel(), 'c7');
  await app.shot(prefix + 'chat-two-rounds');

  // Regenerate the first reply: replay from the step-1 checkpoint whose next is reply.
  await app.select('c2');
  await app.page.getByTestId('preview').getByText('fork under c2').waitFor();
  await app.replay();
  assert.equal(await app.count(), 10, 'replay from step 1 → 10');
  assert.match(await app.name('c8'), /^Checkpoint c8, step 2, fork, next: reply/);
  assert.equal(await app.parentOf('c8'), 'c2', 'the fork hangs under the replayed checkpoint');
  assert.equal(await app.parentOf('c9'), 'c8');

  // Replay the finished first round: one fork copy, nothing runs.
  await app.select('c3');
  assert.match(await app.name('c3'), /step 2, loop, next: done/);
  await app.replay();
  assert.equal(await app.count(), 11, 'replay of a finished checkpoint → 11');
  assert.equal(await app.parentOf('c10'), 'c3');
  assert.match(await app.name('c10'), /fork, next: done/);

  // Edit the first message as booking: an update under the input checkpoint; nothing runs yet.
  await app.select('c0');
  const dialog = await app.fork(
    '{"messages": [{"type": "human", "content": "Is there a slot on Friday?"}]}',
    'booking',
  );
  await dialog.getByText('Resulting next: reply').waitFor();
  await dialog.getByText('Skipped: booking').waitFor();
  await app.shot(prefix + 'fork-dialog');
  await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
  await app.waitForCount(12);
  assert.equal(await app.parentOf('c11'), 'c0', 'the update hangs under the input checkpoint');
  assert.equal(await app.name('c11'), 'Checkpoint c11, step 0, update, next: reply, HEAD');

  // Then run it: reply runs once.
  await app.replay();
  assert.equal(await app.count(), 13, 'running the update → 13');
  assert.equal(await app.parentOf('c12'), 'c11');
  assert.match(await app.name('c12'), /^Checkpoint c12, step 1, loop, next: done, HEAD$/);
  assert.equal(await app.headLabel(), 'c12');

  const log = await app.logLines();
  assert.ok(log.some((l) => l.startsWith('update_state(c0, {"messages"') && l.endsWith('as_node="booking") → c11')), log.join('\n'));
  assert.ok(log.includes('invoke(None, c11) → c12'), log.join('\n'));
  assert.ok(log.includes('invoke(None, c2) → c8 … c9'), log.join('\n'));

  // The chat view shows the HEAD chain: the edited message and its reply, with a branch switcher.
  const chat = app.page.getByRole('region', { name: 'Chat' });
  await chat.getByText('Is there a slot on Friday?', { exact: true }).waitFor();
  await chat.getByText('Reply: Is there a slot on Friday?').waitFor();
  await app.select('c12');
  await app.shot(prefix + 'chat-walkthrough');
}
