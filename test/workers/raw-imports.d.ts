/** Vite's `?raw` imports: a file's text, for suites that cannot read the disk (workerd). */
declare module '*?raw' {
  const text: string
  export default text
}
