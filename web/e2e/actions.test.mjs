// End-to-end tests of the chat view's engine actions (regenerate, edit, the ‹ i/n ›
// branch switcher), pin-to-diff in the inspector, and the warning shown when the
// session no longer fits in localStorage. Driven by accessible names and visible text.
// Run: scripts/build-web.sh && node --test --test-concurrency=1 web/e2e/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite } from './harness.mjs';

const open = suite();

/** The chat panel and its messages, by visible text. */
function chatOf(app) {
  const region = app.page.getByRole('region', { name: 'Chat' });
  return {
    region,
    /** The message (list item) whose text is exactly `text`. */
    message: (text) =>
      region.getByRole('listitem').filter({ has: app.page.getByText(text, { exact: true }) }),
    /** The ‹ i/n › switcher of message number `n` (1-based). */
    switcher: (n) => region.getByRole('group', { name: `Branches of message ${n}` }),
    /** The transcript, as [kind, text] pairs. */
    async transcript() {
      const items = region.getByRole('listitem');
      const out = [];
      for (let i = 0; i < (await items.count()); i++) {
        const item = items.nth(i);
        out.push([(await item.locator('.who').textContent()).trim(), (await item.locator('.text').textContent()).trim()]);
      }
      return out;
    },
  };
}

test('chat view: regenerate, the ‹ i/n › switcher, sending on the shown branch, and edit', async () => {
  const app = await open();
  const chat = chatOf(app);
  await app.send('one');
  assert.equal(await app.count(), 4);
  assert.deepEqual(await chat.transcript(), [
    ['human', 'one'],
    ['ai', 'Reply: one'],
  ]);
  assert.equal(await chat.region.getByRole('group', { name: /^Branches of message/ }).count(), 0, 'no switcher yet');

  // Regenerate the reply: replay from the checkpoint before it (c2, next = reply).
  await chat.message('Reply: one').getByRole('button', { name: 'regenerate' }).click();
  await app.waitForCount(6);
  let log = await app.logLines();
  assert.equal(log.at(-1), 'invoke(None, c2) → c4 … c5');
  assert.match(await app.name('c4'), /^Checkpoint c4, step 2, fork, next: reply/);
  assert.equal(await app.parentOf('c4'), 'c2', 'the regenerated reply forks under c2');
  assert.equal(await app.parentOf('c3'), 'c2', 'the old reply stays on its branch');
  await chat.switcher(2).getByText('2/2', { exact: true }).waitFor();
  assert.equal(await chat.switcher(1).count(), 0, 'the human message has no siblings');
  await app.shot('chat-regenerate');

  // ‹ shows the other branch's transcript; nothing runs, nothing is created.
  await chat.switcher(2).getByRole('button', { name: 'Previous branch' }).click();
  await chat.switcher(2).getByText('1/2', { exact: true }).waitFor();
  await chat.region.getByRole('heading', { name: 'Chat · other branch' }).waitFor();
  assert.equal(await app.selectedLabel(), 'c3', 'the tree selects the shown branch tip');
  assert.equal(await app.count(), 6, 'switching creates no checkpoint');
  assert.equal((await app.logLines()).length, log.length, 'switching calls no engine');
  await app.page.getByText('Sends to the tip of the branch shown in the chat: invoke(input, tip).').waitFor();
  // › goes back to 2/2, and ‹ again to 1/2 (wraps around the n branches).
  await chat.switcher(2).getByRole('button', { name: 'Next branch' }).click();
  await chat.switcher(2).getByText('2/2', { exact: true }).waitFor();
  assert.equal(await app.selectedLabel(), 'c5');
  await chat.switcher(2).getByRole('button', { name: 'Previous branch' }).click();
  await chat.switcher(2).getByText('1/2', { exact: true }).waitFor();

  // Send on the shown (older) branch: invoke with its tip's checkpoint id.
  await app.send('two');
  await app.waitForCount(10);
  log = await app.logLines();
  assert.equal(log.at(-1), 'invoke({"messages":[{"type":"human","content":"two"}]}, c3) → c6 … c9');
  assert.equal(await app.parentOf('c6'), 'c3', 'the new input hangs under the old branch tip');
  assert.match(await app.name('c6'), /^Checkpoint c6, step 3, input/);
  await chat.region.getByRole('heading', { name: 'Chat · HEAD chain' }).waitFor();
  assert.deepEqual(await chat.transcript(), [
    ['human', 'one'],
    ['ai', 'Reply: one'],
    ['human', 'two'],
    ['ai', 'Reply: two'],
  ]);
  await chat.switcher(2).getByText('1/2', { exact: true }).waitFor();

  // Edit the first message: update_state on the input checkpoint as booking, then the reply.
  await chat.message('one').getByRole('button', { name: 'edit' }).click();
  const box = chat.region.getByRole('textbox', { name: 'Edited message' });
  assert.equal(await box.inputValue(), 'one', 'the editor starts from the message');
  await box.fill('uno');
  await chat.region.getByRole('button', { name: 'Save' }).click();
  await app.waitForCount(12);
  log = await app.logLines();
  assert.equal(log.at(-2), 'update_state(c0, {"messages":[{"type":"human","content":"uno"}]}, as_node="booking") → c10');
  assert.equal(log.at(-1), 'invoke(None, c10) → c11');
  assert.equal(await app.parentOf('c10'), 'c0');
  assert.match(await app.name('c10'), /^Checkpoint c10, step 0, update, next: reply/);
  assert.deepEqual(await chat.transcript(), [
    ['human', 'uno'],
    ['ai', 'Reply: uno'],
  ]);
  await chat.switcher(1).getByText('2/2', { exact: true }).waitFor();
  await app.shot('chat-edit');

  // ‹ on the edited message brings back the original conversation, unchanged.
  await chat.switcher(1).getByRole('button', { name: 'Previous branch' }).click();
  await chat.switcher(1).getByText('1/2', { exact: true }).waitFor();
  assert.deepEqual(await chat.transcript(), [
    ['human', 'one'],
    ['ai', 'Reply: one'],
    ['human', 'two'],
    ['ai', 'Reply: two'],
  ]);
  assert.equal(await app.count(), 12);
});

test('pin for diff: the inspector compares the selection with the pinned checkpoint, per channel', async () => {
  const app = await open();
  await app.pickScenario('counter');
  await app.run('{"step": 0}');
  await app.waitForCount(4);
  const diff = app.inspector.locator('ul.diff');

  // Without a pin: c3 (step 2) against its parent c2 (step 1).
  await app.select('c3');
  await app.inspector.getByRole('heading', { name: 'diff vs parent c2' }).waitFor();
  assert.deepEqual(await diff.locator('li').allTextContents(), ['step 1 → 2']);

  // Pin c1 (step 0), select c3: the diff is against c1.
  await app.select('c1');
  await app.inspector.getByRole('button', { name: 'Pin for diff' }).click();
  await app.inspector.getByRole('button', { name: 'Unpin' }).waitFor();
  assert.equal(await app.page.locator('svg.dag .node.pinned').getAttribute('data-label'), 'c1', 'the tree marks the pin');
  await app.select('c3');
  await app.inspector.getByRole('heading', { name: 'diff vs pinned c1' }).waitFor();
  assert.deepEqual(await diff.locator('li').allTextContents(), ['step 0 → 2']);
  await app.shot('pinned-diff');

  // Against the input checkpoint c0 (no values yet): the channel is added.
  await app.select('c0');
  await app.inspector.getByRole('heading', { name: 'diff vs pinned c1' }).waitFor();
  assert.deepEqual(await diff.locator('li').allTextContents(), ['step − 0']);

  // Unpin: back to the parent.
  await app.select('c1');
  await app.inspector.getByRole('button', { name: 'Unpin' }).click();
  await app.select('c3');
  await app.inspector.getByRole('heading', { name: 'diff vs parent c2' }).waitFor();
  assert.equal(await app.page.locator('svg.dag .node.pinned').count(), 0);
});

test('a session too large for localStorage shows a plain warning instead of failing silently', async () => {
  // localStorage.setItem of the session throws QuotaExceededError while window.__storageFull is on.
  const app = await open(undefined, () => {
    window.__storageFull = true;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'chronograph.session' && window.__storageFull) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return setItem.call(this, key, value);
    };
  });
  const warning = app.page.getByRole('alert').filter({ hasText: 'too large to keep across reloads' });
  assert.equal(await warning.count(), 0, 'no warning before anything is saved');
  await app.send('hello');
  await warning.waitFor();
  assert.match(await warning.textContent(), /Use Export to keep it as a file\./);
  assert.equal(await app.count(), 4, 'the thread itself is fine');
  await app.shot('storage-full');

  // The warning is true: a reload starts an empty thread (no stale copy comes back).
  await app.page.reload({ waitUntil: 'load' });
  await app.page.getByTestId('tree-stats').getByText(/^0 checkpoints/).waitFor();
  assert.equal(await app.count(), 0);
  assert.equal(await warning.count(), 0, 'nothing failed to save yet after the reload');

  // Once a save fits again, the warning goes away.
  await app.send('again');
  await warning.waitFor();
  await app.page.evaluate(() => {
    window.__storageFull = false;
  });
  await app.send('and again');
  await warning.waitFor({ state: 'detached' });
  await app.page.reload({ waitUntil: 'load' });
  await app.waitForCount(8);
});
