// The two tours every suite walks, in the page's language (app.w):
// - the seed walkthrough on the chat scenario (visualizer, single-file and Chinese
//   suites): two rounds, a replay from step 1, a replay of the finished first round,
//   the first message edited as `booking` and then run; 8, 10, 11, 12, 13 checkpoints
//   with the right parents;
// - the lesson: predict, run and check every step of the tour.
import assert from 'node:assert/strict';

/**
 * Runs the walkthrough on a fresh app in its language (`app.w`, the page's words);
 * screenshots are named `${prefix}...`.
 */
export async function seedWalkthrough(app, prefix = '') {
  const w = app.w;
  const [first, second, edited] = w.messages;
  assert.equal(await app.scenario.inputValue(), 'chat');
  assert.equal(await app.count(), 0);

  await app.send(first);
  await app.send(second);
  assert.equal(await app.count(), 8, 'two rounds → 8 checkpoints');
  assert.equal(await app.name('c0'), w.checkpoint('c0', -1, 'input', '__start__'));
  assert.equal(await app.name('c2'), w.checkpoint('c2', 1, 'loop', 'reply'));
  assert.equal(await app.name('c4'), w.checkpoint('c4', 3, 'input', '__start__'));
  assert.equal(await app.headLabel(), 'c7');
  await app.shot(prefix + 'chat-two-rounds');

  // Regenerate the first reply: replay from the step-1 checkpoint whose next is reply.
  await app.select('c2');
  await app.page.getByTestId('preview').getByText(w.forkUnder('c2')).waitFor();
  await app.replay();
  assert.equal(await app.count(), 10, 'replay from step 1 → 10');
  assert.ok((await app.name('c8')).startsWith(w.checkpoint('c8', 2, 'fork', 'reply')));
  assert.equal(await app.parentOf('c8'), 'c2', 'the fork hangs under the replayed checkpoint');
  assert.equal(await app.parentOf('c9'), 'c8');

  // Replay the finished first round: one fork copy, nothing runs.
  await app.select('c3');
  assert.equal(await app.name('c3'), w.checkpoint('c3', 2, 'loop', w.done));
  await app.replay();
  assert.equal(await app.count(), 11, 'replay of a finished checkpoint → 11');
  assert.equal(await app.parentOf('c10'), 'c3');
  assert.ok((await app.name('c10')).startsWith(w.checkpoint('c10', 3, 'fork', w.done)));

  // Edit the first message as booking: an update under the input checkpoint; nothing runs yet.
  await app.select('c0');
  const dialog = await app.fork(
    JSON.stringify({ messages: [{ type: 'human', content: edited }] }),
    'booking',
  );
  await dialog.getByText(w.resultingNext('reply')).waitFor();
  await dialog.getByText(w.skipped('booking')).waitFor();
  await app.shot(prefix + 'fork-dialog');
  await dialog.getByRole('button', { name: w.apply, exact: true }).click();
  await app.waitForCount(12);
  assert.equal(await app.parentOf('c11'), 'c0', 'the update hangs under the input checkpoint');
  assert.equal(await app.name('c11'), `${w.checkpoint('c11', 0, 'update', 'reply')}, HEAD`);

  // Then run it: reply runs once.
  await app.replay();
  assert.equal(await app.count(), 13, 'running the update → 13');
  assert.equal(await app.parentOf('c12'), 'c11');
  assert.equal(await app.name('c12'), `${w.checkpoint('c12', 1, 'loop', w.done)}, HEAD`);
  assert.equal(await app.headLabel(), 'c12');

  const log = await app.logLines();
  assert.ok(log.some((l) => l.startsWith('update_state(c0, {"messages"') && l.endsWith('as_node="booking") → c11')), log.join('\n'));
  assert.ok(log.includes('invoke(None, c11) → c12'), log.join('\n'));
  assert.ok(log.includes('invoke(None, c2) → c8 … c9'), log.join('\n'));

  // The chat view shows the HEAD chain: the edited message and its reply, with a branch switcher.
  const chat = app.page.getByRole('region', { name: w.chat });
  await chat.getByText(edited, { exact: true }).waitFor();
  await chat.getByText(`Reply: ${edited}`).waitFor();
  await app.select('c12');
  await app.shot(prefix + 'chat-walkthrough');
}

/**
 * Opens the lesson and walks its 13 steps: predictions (the checkpoint count right on
 * purpose), run, checks. `from` starts at a later step of a lesson already open (the
 * language-switch test); screenshots are named `${prefix}...`.
 */
export async function lessonTour(app, { prefix = '', from = 0 } = {}) {
  const w = app.w;
  const lesson = app.page.getByRole('region', { name: w.lesson });
  if (from === 0) {
    await app.button(w.lessonButton).click();
    await lesson.getByRole('button', { name: w.startLesson }).click();
  }
  // Checkpoints after each step (the Rust test of lesson.rs walks the same tour); step 10
  // starts a new thread on the research subgraph, whose root namespace has 3 at first.
  const counts = [8, 10, 11, 12, 13, 14, 15, 19, 20, 3, 4, 4, 6];
  for (let step = from; step < counts.length; step++) {
    await lesson.getByRole('heading', { name: new RegExp(`^${step + 1}\\. `) }).waitFor();
    const groups = lesson.getByRole('group');
    const n = await groups.count();
    assert.ok(n > 0, `step ${step + 1} asks for predictions`);
    let rightOnPurpose = 0;
    for (let i = 0; i < n; i++) {
      const group = groups.nth(i);
      const legend = (await group.locator('legend').textContent()).trim();
      if (legend === w.countQuestion) {
        // Predict the count right: its check must come out ✓.
        await group.getByRole('radio', { name: String(counts[step]), exact: true }).check();
        rightOnPurpose++;
      } else {
        await group.getByRole('radio').first().check();
      }
    }
    await lesson.getByRole('button', { name: w.runStep }).click();
    await lesson.getByRole('button', { name: w.nextStep }).waitFor();
    // The root namespace's checkpoints (an update inside a subgraph opens its group).
    const roots = await app.page.locator('svg.dag g.node[data-ns=""]').count();
    assert.equal(roots, counts[step], `step ${step + 1} ran on the page thread`);
    assert.equal(await lesson.getByText(w.verdict).count(), n, `step ${step + 1}: every prediction is checked`);
    assert.ok((await lesson.getByText(w.right).count()) >= rightOnPurpose, `step ${step + 1}: a right count is marked ✓`);
    if (step === 1) await app.shot(`${prefix}lesson`);
    if (step === 8) {
      assert.equal(await app.count(), 20, 'the seed tour: 20 checkpoints');
      const log = await app.logLines();
      assert.ok(log.some((l) => l.startsWith('update_state(c2, None, as_node="__copy__")')), log.join('\n'));
    }
    if (step === 11) {
      // The update went through the subgraph's config: logged with its namespace.
      const log = await app.logLines();
      assert.ok(log.some((l) => /^update_state\(s7 in research:[0-9a-f]{6}, \{"draft":"Draft v2"\}\) → s8/.test(l)), log.join('\n'));
      // The edit is drawn: its group (the replay's namespace, under c3) opened by itself.
      await app.checkpoint('s8').waitFor();
      assert.ok((await app.name('s8')).startsWith(w.checkpoint('s8', 3, 'update', 'approve')));
      await app.shot(`${prefix}lesson-namespaces`);
    }
    await lesson.getByRole('button', { name: w.nextStep }).click();
  }
  await lesson.getByText(w.lessonDone, { exact: false }).waitFor();
  assert.equal(await app.page.locator('svg.dag g.node[data-ns=""]').count(), 6, 'the research thread: 6 root checkpoints');
  assert.equal(await app.scenario.inputValue(), 'research');
}
