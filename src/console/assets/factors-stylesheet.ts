/** The second-factor pages' rules, appended to the console's stylesheet. */
export const FACTORS_CSS = `
.qr-code { display: block; width: 200px; height: 200px; margin: 0 0 12px; image-rendering: pixelated; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
.copy-row pre.recovery-codes { flex: 1; margin: 0; background: #f1f3f6; border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; font-size: 1.05rem; line-height: 1.6; overflow-x: auto; }
.copy-row code#totp-secret { white-space: normal; overflow-wrap: anywhere; letter-spacing: 0.04em; }
.warning-panel { border-left: 6px solid var(--waiting); }
.second-step { display: grid; gap: 18px; max-width: 720px; }
.second-step .panel { margin: 0; }
.second-step h2 { margin-top: 0; }
.second-step-head h1 { margin-bottom: 4px; }
.second-step-head .lede { margin: 0; }
`;
