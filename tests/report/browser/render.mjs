// Open ntidx report pages in Debian's Chromium, headless, with every request aborted, and print what each
// drew as one JSON object per line on stdout (test_report.py asserts on them):
//   node render.mjs PAGE.html SHOT.png [PAGE.html SHOT.png ...]
// SHOT.png "-": no screenshot (a whole page's screenshot is what costs the most time here).
// {"rendered", "console": [errors], "pageErrors": [...], "requests": [urls other than the page], "marks":
//  {selector: count}, "sections": [ids], "tooltip": text shown over the first GC pause, "zoom": the zoom
//  bar's text after a drag, "text_flaws": ["NaN"...] found in the page's text}
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
if (!argv.length || argv.length % 2) {
  console.error('usage: node render.mjs PAGE.html SHOT.png|- [PAGE.html SHOT.png|- ...]');
  process.exit(2);
}
// The selectors of the marks each chart draws, one per record of its data.
const MARKS = ['#gc-pauses rect.gc-pause', '#gc-pauses rect.gc-span', '#heap-chart circle.heap-point',
  '#contention-waits rect.wait', '#activities-chart rect.activity', '#flame-graph rect.flame-node',
  '#cpu-top rect.cpu-bar', '#jit-chart rect.jit-bar', '#alloc-chart rect.alloc-bar',
  '#exceptions-chart rect.exception-bar'];

const profile = mkdtempSync(join(tmpdir(), 'ntidx-report-chromium-'));
let context;
try {
  // a fresh profile; the flags the machine's notes give for a headless Chromium with no network
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  for (let i = 0; i < argv.length; i += 2)
    process.stdout.write(JSON.stringify(await render(context, argv[i], argv[i + 1])) + '\n');
} catch (e) {
  process.stdout.write(JSON.stringify({ pageErrors: ['render.mjs: ' + (e && e.stack ? e.stack : String(e))] }) + '\n');
} finally {
  if (context) await context.close();
  rmSync(profile, { recursive: true, force: true });
}

async function render(context, page_path, shot) {
  const url = pathToFileURL(resolve(page_path)).href;
  const out = { page: page_path, rendered: false, console: [], pageErrors: [], requests: [], marks: {}, sections: [] };
  // The network is gone: every request but the page's own file is aborted, and said.
  await context.unrouteAll();
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u === url) return route.continue();
    out.requests.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  try {
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') out.console.push(m.type() + ': ' + m.text()); });
    page.on('pageerror', (e) => out.pageErrors.push(String(e)));
    page.on('requestfailed', (r) => { if (r.url() !== url && !out.requests.includes(r.url())) out.requests.push(r.url()); });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-rendered="yes"]', { timeout: 10000 }).catch(() => {});
    out.rendered = await page.evaluate(() => document.body.getAttribute('data-rendered') === 'yes');
    for (const sel of MARKS) out.marks[sel] = await page.locator(sel).count();
    out.sections = await page.evaluate(() => Array.from(document.querySelectorAll('section.analysis')).map((s) => s.id));
    out.title = await page.title();
    out.text_flaws = await page.evaluate(() => ['NaN', 'undefined', '[object Object]', 'Infinity']
      .filter((w) => document.body.innerText.includes(w)));
    out.text = await page.evaluate(() => document.body.innerText);
    // A tooltip with the numbers over the first GC pause; then a drag across the chart zooms every time chart.
    const pause = page.locator('#gc-pauses rect.gc-pause').first();
    if (await pause.count()) {
      await pause.scrollIntoViewIfNeeded();
      await pause.hover({ force: true });
      out.tooltip = await page.evaluate(() => { const t = document.getElementById('tip'); return t.hidden ? null : t.innerText; });
      const box = await page.locator('#gc-pauses svg').boundingBox();
      await page.mouse.move(box.x + box.width * 0.3, box.y + 20);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + 20, { steps: 5 });
      await page.mouse.up();
      out.zoom = await page.evaluate(() => document.querySelector('.zoombar span').textContent);
      await page.evaluate(() => document.querySelector('.zoombar button').click());
      out.unzoom = await page.evaluate(() => document.querySelector('.zoombar span').textContent);
      await page.mouse.move(0, 0);
    }
    if (shot !== '-') await page.screenshot({ path: shot, fullPage: true });
  } catch (e) {
    out.pageErrors.push('render.mjs: ' + (e && e.stack ? e.stack : String(e)));
  } finally {
    await page.close();
  }
  return out;
}
