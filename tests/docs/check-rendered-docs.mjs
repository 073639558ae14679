// Opens the rendered API reference (cargo xtask docs) in headless Chromium
// and checks what a reader must see: both order operations, and in v1 the
// deprecation mark on getPetById (v2 has no getPetById). Exits non-zero
// when something is missing.
//
// usage: node tests/docs/check-rendered-docs.mjs PATH_TO_INDEX_HTML [v1|v2]
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

// The pinned playwright-core that `cargo xtask docs` installs.
const require = createRequire(path.resolve('.tools/docs/package.json'));
const { chromium } = require('playwright-core');

const page_path = process.argv[2];
const version = process.argv[3] || 'v1';
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const failures = [];
try {
  // Redoc renders sections as they scroll into view: a tall viewport shows them all.
  const page = await browser.newPage({ viewport: { width: 1280, height: 4000 } });
  await page.goto(pathToFileURL(path.resolve(page_path)).href);
  const expect = async (what, locator) => {
    try {
      await locator.first().waitFor({ state: 'attached', timeout: 15000 });
      console.log(`ok: ${what}`);
    } catch {
      failures.push(what);
      console.log(`MISSING: ${what}`);
    }
  };
  await expect('listOrders: GET /store/orders', page.getByText('/store/orders', { exact: true }));
  await expect('cancelOrder: DELETE /store/orders/{orderId}', page.getByText('/store/orders/{orderId}', { exact: true }));
  // Redoc marks a deprecated operation with a tag right after its path.
  const deprecationTag = (operationPath) =>
    page.locator(`span:text-is("${operationPath}") + [data-component-name="Tag/Tag"]`).filter({ hasText: /^deprecated$/i });
  if (version === 'v1') {
    await expect('the deprecation mark on GET /pets/{petId}', deprecationTag('/pets/{petId}'));
  } else if ((await page.getByText('/pets/{petId}', { exact: true }).count()) > 0) {
    failures.push(`${version} shows /pets/{petId}`);
    console.log(`WRONG: ${version} shows /pets/{petId}`);
  }
  for (const orderPath of ['/store/orders', '/store/orders/{orderId}']) {
    if ((await deprecationTag(orderPath).count()) > 0) {
      failures.push(`${orderPath} is marked deprecated`);
      console.log(`WRONG: ${orderPath} is marked deprecated`);
    }
  }
} finally {
  await browser.close();
}
if (failures.length > 0) {
  console.error(`${failures.length} check(s) failed: ${failures.join('; ')}`);
  process.exit(1);
}
console.log(`the rendered ${version} reference shows what it must`);
