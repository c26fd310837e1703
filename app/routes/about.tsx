import { company } from "~/domain/company";
import { pageMeta } from "~/features/layout/page-meta";

export const meta = () =>
  pageMeta("About Us", "A family-owned leasing company with over 30 years in Northern Virginia.");

export default function About() {
  const { about } = company;
  return (
    <article className="prose">
      <h1>About Us</h1>
      {about.aboutUs.map((text) => (
        <p key={text}>{text}</p>
      ))}
      <h2>Founder</h2>
      {about.founder.map((text) => (
        <p key={text}>{text}</p>
      ))}
      <h2>Services Provided</h2>
      <ul>
        {about.services.map((service) => (
          <li key={service.title}>
            <strong>{service.title}</strong>: {service.text}
          </li>
        ))}
      </ul>
    </article>
  );
}
