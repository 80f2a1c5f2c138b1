/** The page's whole stylesheet: system fonts, compact tables, pills for state. */
export const PAGE_CSS = `
:root { color-scheme: light; --fg: #1d2330; --muted: #6b7280; --line: #e3e6ec; --bg: #f6f7f9; --accent: #1f5fbf; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; justify-content: space-between; align-items: center; padding: 10px 24px; background: #1d2330; color: #fff; }
header a.brand { color: #fff; text-decoration: none; font-weight: 700; font-size: 16px; }
header a.brand span { font-weight: 400; opacity: .7; }
header form { margin: 0; }
button.link { background: none; border: 0; color: #fff; opacity: .85; cursor: pointer; font: inherit; padding: 0; }
main { max-width: 1280px; margin: 0 auto; padding: 20px 24px 48px; }
h1 { font-size: 22px; margin: 4px 0 14px; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
h2 { font-size: 16px; margin: 26px 0 8px; }
a { color: var(--accent); }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: baseline; }
th { font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); background: #fafbfc; white-space: nowrap; }
td.nowrap { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:last-child td { border-bottom: 0; }
tr.current td { background: #f2f7ff; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12.5px; word-break: break-all; }
.muted { color: var(--muted); }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.badge.ok { background: #e3f6e8; color: #17692f; }
.badge.warn { background: #fff1d6; color: #8a5300; }
.badge.bad { background: #fde4e4; color: #a01d1d; }
.badge.pin { background: #ede6ff; color: #5a2ea6; }
.badge.muted { background: #eceef2; color: var(--muted); }
.added { color: #17692f; } .removed { color: #a01d1d; } .changed { color: #8a5300; }
dl.summary { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; margin: 0; }
dl.summary div { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
dl.summary dt { font-size: 12px; color: var(--muted); }
dl.summary dd { margin: 0; font-size: 18px; font-weight: 600; }
.banner { background: #f5f0ff; border: 1px solid #d9c9fb; border-radius: 6px; padding: 10px 14px; display: flex; gap: 14px; align-items: center; flex-wrap: wrap; margin-bottom: 12px; }
.notice { background: #e9f5ee; border: 1px solid #bfe3cb; border-radius: 6px; padding: 8px 14px; margin-bottom: 12px; }
.error { background: #fde4e4; border: 1px solid #f3b9b9; border-radius: 6px; padding: 8px 14px; color: #7d1515; }
form.inline { display: inline; margin: 0; }
form.compare { display: flex; gap: 8px; align-items: center; margin: 0 0 10px; }
form.login { display: flex; flex-direction: column; gap: 8px; max-width: 420px; }
input, select, button { font: inherit; }
input[type=password] { padding: 6px 8px; border: 1px solid #c5cad3; border-radius: 4px; }
button { white-space: nowrap; padding: 3px 10px; border-radius: 4px; border: 1px solid #b8bec9; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { border-color: #d99; color: #a01d1d; }
.diff table + table { margin-top: 10px; }
.empty { padding: 10px 12px; background: #fff; border: 1px dashed var(--line); border-radius: 6px; color: var(--muted); }
footer { margin-top: 28px; font-size: 12px; color: var(--muted); }
`
