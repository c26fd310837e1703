import type { ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import "./app.css";

import type { Route } from "./+types/root";
import { brandStyle } from "./domain/brand";
import { layoutContent } from "./domain/company";
import { can } from "./features/auth";
import { PhotoBaseProvider } from "./features/images";
import { Navbar, NotFoundPage, PendingIndicator, SiteFooter } from "./features/layout";
import { countNewLeads } from "./features/leads/index.server";
import { useCompany } from "./features/site-settings";
import { getSiteContent } from "./features/site-settings/index.server";

export async function loader({ context }: Route.LoaderArgs) {
  return {
    // Admins only: the user menu's 'Inbox (3)' (docs/behaviour.md §27); nothing for others.
    ...(can(context.viewer, "leads")
      ? { inboxNew: await countNewLeads(context.db, context.viewer.listings) }
      : {}),
    // The pages need no listing scope: each loader applies it on the server.
    viewer: { ...context.viewer, listings: null },
    origin: context.env.publicUrl,
    photoBase: context.env.photoBaseUrl ?? null,
    // Stored settings over the defaults: every page reads the company through useCompany().
    // The About text is /about's own (app/routes/about.tsx): no other page needs to carry it.
    company: layoutContent(await getSiteContent(context.db)),
  };
}

export const links = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: ReactNode }) {
  const company = useCompany();
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en" style={brandStyle(company.brandColors)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {/* Around the navbar too: an uploaded logo is in the photo store (docs/behaviour.md §18). */}
        <PhotoBaseProvider base={data?.photoBase ?? null}>
          <Navbar />
          <PendingIndicator />
          <main id="main">
            <div className="container">{children}</div>
          </main>
          <SiteFooter />
        </PhotoBaseProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const company = useCompany();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  // On the server, entry.server.tsx's handleError has logged it already (with the request's id).
  if (!isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  // A database outage (503): the server says so in `message` (docs/behaviour.md, "Database faults");
  // so does a body over its limit (413, docs/decisions/0072-request-body-limits.md).
  const outage =
    isRouteErrorResponse(error) && (error.status === 503 || error.status === 413)
      ? (error.data as { message?: unknown } | null)?.message
      : undefined;
  // A fault answered by app/shared/page-fault.server.ts carries the request's id, shown as the
  // admin dialogs show it (docs/decisions/0058-one-error-model.md).
  const reference =
    isRouteErrorResponse(error) && error.status >= 500
      ? (error.data as { reference?: unknown } | null)?.reference
      : undefined;
  return (
    <section className="prose">
      <title>{`Something went wrong | ${company.name}`}</title>
      <h1>Something went wrong</h1>
      <p>Sorry, this page could not be shown. Please try again in a moment.</p>
      {typeof outage === "string" ? <p>{outage}</p> : null}
      {typeof reference === "string" ? <p>{`Reference: ${reference}`}</p> : null}
    </section>
  );
}
