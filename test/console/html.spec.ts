import { expect } from 'chai';
import { html, trustedHtml } from '../../src/console/html.js';
import { sparkline } from '../../src/console/charts.js';
import { CONSOLE_CSS } from '../../src/console/assets/stylesheet.js';

describe('The console\'s html template', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const name = `<img src=x onerror=alert(1)> & "quoted" 'single'`;
    expect(html`<p title="${name}">${name}</p>`.markup).to.equal(
      '<p title="&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &#39;single&#39;">&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quoted&quot; &#39;single&#39;</p>',
    );
  });

  it('nests markup built by html, and lists of it, without escaping it twice', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>`.markup).to.equal('<ul><li>a&lt;b</li><li>c</li></ul>');
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${12.5}`.markup).to.equal('012.5');
  });

  it('takes raw markup only through trustedHtml', () => {
    expect(html`${trustedHtml('<!doctype html>')}`.markup).to.equal('<!doctype html>');
    expect(html`${'<!doctype html>'}`.markup).to.equal('&lt;!doctype html&gt;');
  });
});

describe('The runs sparkline', () => {
  it('draws one bar per run and says the outcome in words for readers that do not see colour', () => {
    const svg = sparkline([
      { at: '2026-11-21T10:00:00.000Z', ok: true, durationMs: 1200 },
      { at: '2026-11-21T11:00:00.000Z', ok: false, durationMs: null },
    ], 30).markup;
    const bars = (kind: string) => (new RegExp(`class="bar-${kind}" d="([^"]*)"`).exec(svg)?.[1] ?? '').split('z').filter(Boolean).length;
    expect(bars('ok')).to.equal(1);
    expect(bars('fail')).to.equal(1);
    expect(bars('empty')).to.equal(28);
    expect(svg).to.contain('aria-label="Last 2 runs: 1 OK, 1 failed"');
    expect(svg).to.contain('<title>Last 2 runs: 1 OK, 1 failed</title>');
  });
});

describe('The console stylesheet', () => {
  it('closes every block it opens, so no rule after an unclosed @media is silently scoped to it', () => {
    let depth = 0;
    for (const char of CONSOLE_CSS.replace(/\/\*[\s\S]*?\*\//g, '')) {
      if (char === '{') depth += 1;
      if (char === '}') depth -= 1;
      expect(depth).to.be.at.least(0);
    }
    expect(depth).to.equal(0);
  });
});
