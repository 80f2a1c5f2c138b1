/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx'
import { PAGE_CSS } from './page-css.ts'

/** Every page's frame: title, the stylesheet, a header with the way back to the fleet and, when signed in, sign out. */
export function Layout(props: { title: string; csrf?: string; refreshSeconds?: number; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {props.refreshSeconds ? <meta http-equiv="refresh" content={String(props.refreshSeconds)} /> : null}
        <title>{`${props.title} · hapedge`}</title>
        {/* A constant of this module, never data: the one place the page is not escaped. */}
        <style dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
      </head>
      <body>
        <header>
          <a class="brand" href="/fleet">
            hapedge <span>fleet</span>
          </a>
          {props.csrf ? (
            <form method="post" action="/fleet/logout">
              <input type="hidden" name="csrf" value={props.csrf} />
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          ) : null}
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  )
}

/** A refusal the browser shows: what went wrong and the way back. */
export function ErrorPage(props: { status: number; message: string; csrf?: string }) {
  return (
    <Layout title={`Error ${props.status}`} {...(props.csrf ? { csrf: props.csrf } : {})}>
      <h1>{`Error ${props.status}`}</h1>
      <p class="error" role="alert">
        {props.message}
      </p>
      <p>
        <a href="/fleet">Back to the fleet</a>
      </p>
    </Layout>
  )
}

/** The sign-in form: the admin token, exchanged for a session cookie. */
export function LoginPage(props: { failed?: boolean }) {
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      {props.failed ? (
        <p class="error" role="alert">
          That is not the admin token.
        </p>
      ) : null}
      <form method="post" action="/fleet/login" class="login">
        <label for="token">Admin token</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required autofocus />
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">The token that hapedge serve printed, or the Worker's ADMIN_TOKEN. The browser keeps a signed session for 12 hours, not the token.</p>
    </Layout>
  )
}
