import { company } from "~/domain/company";
import { pageMeta } from "~/features/layout/page-meta";

export const meta = () =>
  pageMeta(
    "Contact",
    `E-mail or call ${company.name}: our president, vice president and property manager.`,
  );

export default function Contact() {
  const { office } = company;
  return (
    <section>
      <h1>Contact Us</h1>
      <ul className="contact-grid card-grid">
        {company.contacts.map((person) => (
          <li key={person.role} className="card">
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
    </section>
  );
}
