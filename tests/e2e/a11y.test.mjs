// Every student can use it: an axe-core audit (WCAG 2.1 A/AA and axe's best practices)
// of the main views, with no violations: the seed walkthrough's tree with the inspector
// and the history player, the Fork dialog, and the lesson (a question, then its checks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite } from './harness.mjs';
import { seedWalkthrough } from './walkthrough.mjs';

const open = suite();

test('axe: the walkthrough, the Fork dialog and the lesson have no violations', async () => {
  const app = await open();
  await app.audit('the empty thread');
  await seedWalkthrough(app, 'a11y-');
  const passes = await app.audit('the walkthrough (tree, inspector, chat, log, player)');
  assert.ok(passes > 20, `axe ran its rules (${passes} passed)`);

  await app.select('c3');
  const dialog = await app.fork('{"messages": []}', 'reply', null);
  await dialog.getByText('Resulting next:', { exact: false }).waitFor();
  await app.audit('the Fork dialog');
  await app.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  await app.button('Lesson ▸').click();
  const lesson = app.page.getByRole('region', { name: 'Lesson' });
  await lesson.getByRole('button', { name: 'Start the lesson' }).click();
  await lesson.getByRole('heading', { name: /^1\. / }).waitFor();
  await app.audit('a lesson question');
  const groups = lesson.getByRole('group');
  for (let i = 0; i < (await groups.count()); i++) await groups.nth(i).getByRole('radio').first().check();
  await lesson.getByRole('button', { name: 'Run step' }).click();
  await lesson.getByRole('button', { name: 'Next step' }).waitFor();
  await app.audit('a lesson step with its checks');
});
