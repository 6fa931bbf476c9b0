// Every student can use it: an axe-core audit (WCAG 2.1 A/AA and axe's best practices)
// of the main views, in English and in Chinese, with no violations: the seed
// walkthrough's tree with the inspector and the history player, the Fork dialog, and
// the lesson (a question, then its checks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite } from './harness.mjs';
import { seedWalkthrough } from './walkthrough.mjs';

const open = suite();

for (const lang of ['en', 'zh']) {
  test(`axe (${lang}): the walkthrough, the Fork dialog and the lesson have no violations`, async () => {
    const app = await open(undefined, undefined, lang);
    const w = app.w;
    await app.audit(`the empty thread (${lang})`);
    await seedWalkthrough(app, `a11y-${lang}-`);
    const passes = await app.audit(`the walkthrough (${lang}: tree, inspector, chat, log, player)`);
    assert.ok(passes > 20, `axe ran its rules (${passes} passed)`);

    await app.select('c3');
    const dialog = await app.fork('{"messages": []}', 'reply');
    await dialog.getByTestId('fork-explanation').locator('li').first().waitFor();
    await app.audit(`the Fork dialog (${lang})`);
    await app.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await app.button(w.lessonButton).click();
    const lesson = app.page.getByRole('region', { name: w.lesson });
    await lesson.getByRole('button', { name: w.startLesson }).click();
    await lesson.getByRole('heading', { name: /^1\. / }).waitFor();
    await app.audit(`a lesson question (${lang})`);
    const groups = lesson.getByRole('group');
    for (let i = 0; i < (await groups.count()); i++) await groups.nth(i).getByRole('radio').first().check();
    await lesson.getByRole('button', { name: w.runStep }).click();
    await lesson.getByRole('button', { name: w.nextStep }).waitFor();
    await app.audit(`a lesson step with its checks (${lang})`);
  });
}

test('axe: a subgraph thread with its namespace expanded has no violations', async () => {
  const app = await open();
  await app.pickScenario('research');
  await app.run('{"log": []}');
  await app.page.locator('svg.dag [data-expand]').first().click();
  await app.page.locator('svg.dag .frame').first().waitFor();
  await app.audit('the research thread with its subgraph open');
});
