import { pageMeta } from "~/features/layout";
import { InquiryForm } from "~/features/leads";
import { companyFrom, useCompany } from "~/features/site-settings";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) => {
  const company = companyFrom(matches);
  const roles = company.contacts.map((c) => c.role.toLowerCase());
  const who = roles.length > 1 ? `${roles.slice(0, -1).join(", ")} and ${roles.at(-1)}` : roles[0];
  return pageMeta(
    "Contact",
    who ? `E-mail or call ${company.name}: our ${who}.` : `E-mail or call ${company.name}.`,
    matches,
  );
};

/** The page's render time, for the message form's time check (docs/behaviour.md §27). */
export function loader() {
  return { renderedAt: Date.now() };
}

export default function Contact({ loaderData }: Route.ComponentProps) {
  const company = useCompany();
  const { office } = company;
  return (
    <section>
      <h1>Contact Us</h1>
      <ul className="contact-grid card-grid">
        {company.contacts.map((person, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: roles may repeat; the list never reorders here
          <li key={i} className="card">
            <div className="card-body">
              <h2 className="card-title">{person.role}</h2>
              <p className="card-text">{person.name}</p>
              <p className="card-text">
                <a href={`mailto:${person.email}`}>{person.email}</a>
              </p>
              {person.phone ? (
                <p className="card-text">
                  <a href={`tel:${person.phone}`}>{person.phone}</a>
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {office.address || office.hours ? (
        <section className="office" aria-labelledby="office-title">
          <h2 id="office-title">Our Office</h2>
          <dl>
            {office.address ? (
              <>
                <dt>Address</dt>
                <dd>
                  <address>{office.address}</address>
                </dd>
              </>
            ) : null}
            {office.hours ? (
              <>
                <dt>Hours</dt>
                <dd>{office.hours}</dd>
              </>
            ) : null}
          </dl>
        </section>
      ) : null}
      <InquiryForm renderedAt={loaderData.renderedAt} />
    </section>
  );
}
