// /admin/leasing-agents, 'Leasing agents' (docs/behaviour.md §6, "Staff roles"): an Owner or a
// Manager limits a Leasing agent to 'Only these listings', a searchable list on the agent's row
// (the browser's own suggestions of every listing's address). A limited agent then reads the
// leads and applications of those listings alone, and every message from /contact.
import { Form, useNavigation } from "react-router";
import { z } from "zod";
import { parseListingRef } from "~/domain/listing-kinds";
import {
  actorOf,
  addStaffListing,
  listAdmins,
  removeStaffListing,
  requireStaff,
  STAFF_LISTINGS_MAX,
  staffListings,
} from "~/features/auth/index.server";
import { pageMeta } from "~/features/layout";
import { listingAtAddress, listingChoices } from "~/features/listings/index.server";
import { parseForm, refused, succeeded } from "~/shared/action-result.server";
import { ActionAnswer } from "~/ui";
import type { Route } from "./+types/admin-leasing-agents";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta("Leasing agents", "Admin: the listings each leasing agent works on.", matches),
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: Route.LoaderArgs) {
  requireStaff(context, "agents");
  const [staff, limits, choices] = await Promise.all([
    listAdmins(context.db),
    staffListings(context.db),
    listingChoices(context.db),
  ]);
  const addressOf = new Map(choices.map((c) => [c.value, c.address]));
  const agents = staff
    .filter((person) => person.role === "leasing-agent" && person.email)
    .map((person) => ({
      email: person.email as string,
      name: person.name,
      listings: (limits.get(person.email as string) ?? []).map((l) => {
        const value = `${l.collection}/${l.id}`;
        // A listing deleted meanwhile keeps its place (restoring it restores the agent's view).
        return { value, address: addressOf.get(value) ?? `${l.id} (deleted)` };
      }),
    }));
  return { agents, addresses: [...new Set(choices.map((c) => c.address))] };
}

const email = z.string().trim().toLowerCase().min(1).max(254);
const AgentForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    email,
    address: z.string().trim().max(500),
  }),
  z.object({ intent: z.literal("remove"), email, listing: z.string().max(400) }),
]);

export async function action({ context, request }: Route.ActionArgs) {
  const viewer = requireStaff(context, "agents");
  const parsed = await parseForm(request, AgentForm, { invalid: "Check the form." });
  if (!parsed.ok) return refused(context, parsed.status, parsed.message);
  const input = parsed.data;
  const by = actorOf(viewer);
  if (input.intent === "remove") {
    const listing = parseListingRef(input.listing);
    if (listing) await removeStaffListing(context.db, input.email, listing, by);
    return succeeded(`Saved: ${input.email}'s listings.`);
  }
  const found = await listingAtAddress(context.db, input.address);
  const listing = found ? parseListingRef(found.value) : null;
  if (!found || !listing) {
    return refused(context, 400, "Choose a listing from the suggestions.");
  }
  const result = await addStaffListing(context.db, input.email, listing, by);
  if (!result.ok) {
    const error =
      result.reason === "not-agent"
        ? `${input.email} is not a Leasing agent.`
        : `At most ${STAFF_LISTINGS_MAX} listings for one agent.`;
    return refused(context, 400, error);
  }
  return succeeded(`${found.address} added for ${input.email}.`);
}

export default function LeasingAgents({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  return (
    <section className="prose">
      <h1>Leasing agents</h1>
      <p>
        Limit a Leasing agent to some listings: they then see the leads and applications of those
        listings alone, and every message sent from the contact page. With none chosen, they see
        every listing's.
      </p>
      <ActionAnswer answer={actionData} />
      {loaderData.agents.length === 0 ? (
        <p>No Leasing agents yet. An Owner adds them on 'Staff'.</p>
      ) : (
        <table className="table leasing-agents">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Only these listings</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.agents.map((agent) => (
              <tr key={agent.email} id={`agent-${agent.email}`}>
                <td>
                  {agent.email}
                  {agent.name ? <div className="text-muted">{agent.name}</div> : null}
                </td>
                <td>
                  {agent.listings.length === 0 ? (
                    <p className="mb-1">All listings</p>
                  ) : (
                    <ul className="list-unstyled mb-1">
                      {agent.listings.map((listing) => (
                        <li key={listing.value}>
                          <Form method="post" className="d-inline">
                            <input type="hidden" name="intent" value="remove" />
                            <input type="hidden" name="email" value={agent.email} />
                            <input type="hidden" name="listing" value={listing.value} />
                            {listing.address}{" "}
                            <button
                              type="submit"
                              className="btn btn-outline btn-sm"
                              disabled={busy}
                              aria-label={`Remove ${listing.address} from ${agent.email}`}
                            >
                              Remove
                            </button>
                          </Form>
                        </li>
                      ))}
                    </ul>
                  )}
                  <Form method="post" className="d-flex gap-2">
                    <input type="hidden" name="intent" value="add" />
                    <input type="hidden" name="email" value={agent.email} />
                    <input
                      name="address"
                      className="form-control"
                      list="listing-addresses"
                      aria-label={`Only these listings for ${agent.email}`}
                      placeholder="Type an address"
                      required
                      maxLength={500}
                    />
                    <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
                      Add
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <datalist id="listing-addresses">
        {loaderData.addresses.map((address) => (
          <option key={address} value={address} />
        ))}
      </datalist>
    </section>
  );
}
