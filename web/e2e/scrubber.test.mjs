// The history player under the tree: it walks the selected branch from its root to its
// tip, selecting each checkpoint (so the inspector shows it and its diff), by buttons,
// by the slider's keys, and by Play at a chosen speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite } from './harness.mjs';

const open = suite();

test('the scrubber walks the selected branch root to tip: step, slider keys, play and pause', async () => {
  const app = await open();
  await app.send('Is there a slot tomorrow morning?');
  await app.send('Book it for 10 am please');
  // A fork branch under c2: c8 (fork) and c9 (loop) after a replay from step 1.
  await app.select('c2');
  await app.replay();
  assert.equal(await app.count(), 10);

  const player = app.page.getByRole('group', { name: 'Play the history' });
  const position = app.page.getByTestId('scrub-position');
  const slider = player.getByRole('slider', { name: 'History position' });

  // The fork branch: c0 c1 c2 c8 c9 (root, through the fork point, to the tip).
  await app.select('c9');
  assert.equal(await position.textContent(), '5 / 5');
  await player.getByRole('button', { name: 'Go to the root' }).click();
  assert.equal(await app.selectedLabel(), 'c0');
  await player.getByRole('button', { name: 'Step forward' }).click();
  await player.getByRole('button', { name: 'Step forward' }).click();
  await player.getByRole('button', { name: 'Step forward' }).click();
  assert.equal(await app.selectedLabel(), 'c8', 'the walk leaves the main branch at the fork point');
  assert.equal(await position.textContent(), '4 / 5');
  // The inspector shows the diff against the parent at each step.
  await app.inspector.getByText('diff vs parent c2').waitFor();
  await player.getByRole('button', { name: 'Step back' }).click();
  assert.equal(await app.selectedLabel(), 'c2', 'still on the fork branch, not the main one');
  assert.equal(await position.textContent(), '3 / 5');

  // The slider is keyboard-operable.
  await slider.focus();
  await app.page.keyboard.press('ArrowRight');
  assert.equal(await app.selectedLabel(), 'c8');
  assert.match(await slider.getAttribute('aria-valuetext'), /^c8, 4 \/ 5$/);
  await app.page.keyboard.press('Home');
  assert.equal(await app.selectedLabel(), 'c0');

  // Play at 4×: it selects each checkpoint in turn and stops at the tip.
  await player.getByRole('combobox', { name: 'Speed' }).selectOption('4');
  const seen = [];
  const watch = setInterval(async () => {
    const l = await app.selectedLabel().catch(() => null);
    if (l && seen.at(-1) !== l) seen.push(l);
  }, 40);
  await player.getByRole('button', { name: 'Play' }).click();
  await player.getByRole('button', { name: 'Pause' }).waitFor();
  await app.page.waitForFunction(
    () => document.querySelector('[data-testid=scrub-position]')?.textContent === '5 / 5',
    null,
    { timeout: 10_000 },
  );
  await player.getByRole('button', { name: 'Play' }).waitFor();
  clearInterval(watch);
  assert.equal(await app.selectedLabel(), 'c9');
  assert.deepEqual(seen.filter((l) => ['c0', 'c1', 'c2', 'c8', 'c9'].includes(l)), seen, `only the branch: ${seen}`);
  assert.ok(seen.includes('c8'), `visited in turn: ${seen}`);

  // Pause stops the walk; a new selection off the branch switches to that branch.
  await player.getByRole('button', { name: 'Play' }).click();
  await player.getByRole('button', { name: 'Pause' }).click();
  const paused = await app.selectedLabel();
  await app.page.waitForTimeout(600);
  assert.equal(await app.selectedLabel(), paused, 'paused: the selection stays');
  await app.select('c7');
  assert.equal(await position.textContent(), '8 / 8', 'the main branch: c0 … c7');
  await app.shot('scrubber');
});
