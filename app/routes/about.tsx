import { useLoaderData } from "react-router";
import { company as defaults } from "~/domain/company";
import { pageMeta } from "~/features/layout";
import { getSiteContent } from "~/features/site-settings/index.server";
import type { Route } from "./+types/about";

/** The About text is read here, not sent with every page by the root loader. */
export async function loader({ context }: Route.LoaderArgs) {
  return { about: (await getSiteContent(context.db)).about };
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta("About Us", aboutDescription((data?.about ?? defaults.about).aboutUs), matches);

const DEFAULT_DESCRIPTION =
  "A family-owned leasing company with over 30 years in Northern Virginia.";

/** The default text for the default content; the first paragraph of staff-written text. */
function aboutDescription(aboutUs: readonly string[]) {
  if (JSON.stringify(aboutUs) === JSON.stringify(defaults.about.aboutUs))
    return DEFAULT_DESCRIPTION;
  const first = aboutUs[0] ?? "";
  return first.length > 160 ? `${first.slice(0, 157).trimEnd()}...` : first || DEFAULT_DESCRIPTION;
}

// (Index keys: staff may write the same paragraph twice, and the lists never reorder here.)
export default function About() {
  const { about } = useLoaderData<typeof loader>();
  return (
    <article className="prose">
      <h1>About Us</h1>
      {about.aboutUs.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <p key={i}>{text}</p>
      ))}
      <h2>Founder</h2>
      {about.founder.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <p key={i}>{text}</p>
      ))}
      <h2>Services Provided</h2>
      <ul>
        {about.services.map((service, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={i}>
            <strong>{service.title}</strong>: {service.text}
          </li>
        ))}
      </ul>
    </article>
  );
}
