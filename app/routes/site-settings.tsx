import { company as defaults } from "~/domain/company";
import { SiteSettingsForm } from "~/features/admin";
import { requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { editableOf, featuredEntries, getSiteContent } from "~/features/site-settings/index.server";
import type { Route } from "./+types/site-settings";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Site settings", "Admin: the company's content on the site.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "site:write");
  const content = await getSiteContent(context.db);
  return {
    settings: editableOf(content),
    logo: content.logo,
    defaultLogo: defaults.logo.src,
    applicationPdf: content.applicationPdf,
    featured: await featuredEntries(context.db),
  };
}

export default function SiteSettings({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <h1>Site settings</h1>
      <SiteSettingsForm initial={loaderData} />
    </section>
  );
}
