// /admin/showings, 'Showings' (docs/behaviour.md §33): the booked showings of today and of the
// next 7 days, in the company's time zone, with the renter's details; 'Showing hours' from here.
// Staff who read the inbox read this (it holds renters' details).
import { Link } from "react-router";
import { listingPath } from "~/domain/listing-kinds";
import { localParts, longDayLabel, slotOf, timeLabel, zonedInstant } from "~/domain/showing-slots";
import { can, requireStaff } from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { getShowingHours, showingsBetween } from "~/features/showings/index.server";
import type { Route } from "./+types/admin-showings";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Showings", "Admin: booked showings.", matches),
  { name: "robots", content: "noindex" },
];

const STATUS_LABELS = {
  booked: "Booked",
  confirmed: "Confirmed",
  cancelled: "Cancelled",
  completed: "Completed",
  "no-show": "No-show",
} as const;

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireStaff(context, "leads");
  const hours = await getShowingHours(context.db);
  const now = new Date();
  const today = localParts(now, hours.timeZone).date;
  const dayStart = (n: number) => {
    const date = new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000)
      .toISOString()
      .slice(0, 10);
    // Midnight, or the first minute that exists that day.
    for (let m = 0; m < 180; m++) {
      const at = zonedInstant(date, m, hours.timeZone);
      if (at) return at;
    }
    return new Date(Date.parse(`${date}T00:00:00Z`));
  };
  // A Leasing agent limited to 'Only these listings' sees those listings' showings alone.
  const showings = await showingsBetween(context.db, dayStart(0), dayStart(8), viewer.listings);
  const tomorrow = dayStart(1).getTime();
  const rows = showings.map((s) => {
    const slot = slotOf(hours, s.start);
    return {
      id: s.id,
      today: s.start.getTime() < tomorrow,
      when: `${longDayLabel(slot.date)}, ${timeLabel(slot.time)}`,
      address: s.listing.address,
      href: listingPath(s.listing.collection, s.listing.id),
      name: s.name,
      email: s.email,
      phone: s.phone,
      answers: [
        s.moveIn ? `Move-in date: ${s.moveIn}` : null,
        s.people ? `People: ${s.people}` : null,
      ].filter(Boolean) as string[],
      status: STATUS_LABELS[s.status],
    };
  });
  return { rows, mayEditHours: can(viewer, "listings:write") };
}

export default function AdminShowings({ loaderData }: Route.ComponentProps) {
  const { rows, mayEditHours } = loaderData;
  const table = (title: string, shown: typeof rows) => (
    <>
      <h2 className="h4">{title}</h2>
      {shown.length === 0 ? (
        <p>No showings.</p>
      ) : (
        <table className="table showings-agenda">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Listing</th>
              <th scope="col">Renter</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.id}>
                <td>{r.when}</td>
                <td>
                  <Link to={r.href}>{r.address}</Link>
                </td>
                <td>
                  {r.name}
                  <div>
                    <a href={`mailto:${r.email}`}>{r.email}</a>
                    {r.phone ? ` · ${r.phone}` : ""}
                  </div>
                  {r.answers.map((a) => (
                    <div key={a} className="text-muted">
                      {a}
                    </div>
                  ))}
                </td>
                <td>{r.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
  return (
    <section className="prose">
      <h1>Showings</h1>
      {mayEditHours ? (
        <p>
          <Link to="/admin/showings/hours">Showing hours</Link>
        </p>
      ) : null}
      {table(
        "Today",
        rows.filter((r) => r.today),
      )}
      {table(
        "Next 7 days",
        rows.filter((r) => !r.today),
      )}
    </section>
  );
}
