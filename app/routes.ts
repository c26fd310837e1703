import { index, type RouteConfig, route } from "@react-router/dev/routes";

// One line per route of docs/behaviour.md §2.
export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  route("properties", "routes/properties.tsx"),
  route("properties/:id", "routes/property-detail.tsx"),
  route("properties/:id/history", "routes/property-history.tsx"),
  route("new-construction", "routes/new-construction.tsx"),
  route("new-construction/:id", "routes/construction-detail.tsx"),
  route("new-construction/:id/history", "routes/construction-history.tsx"),
  route("rental-application", "routes/rental-application.tsx"),
  route("inquiries", "routes/inquiries.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("sitemaps/:file", "routes/sitemap-file.ts"),
  route("robots.txt", "routes/robots-txt.ts"),
  // Admin-only: their loaders answer 404 to anyone else.
  route("addproperty", "routes/add-property.tsx"),
  route("addnewconstruction", "routes/add-construction.tsx"),
  route("editproperties/:id", "routes/edit-property.tsx"),
  route("edit-construction/:id", "routes/edit-construction.tsx"),
  route("admin/admins", "routes/manage-admins.tsx"),
  route("admin/site", "routes/site-settings.tsx"),
  route("admin/deleted", "routes/recently-deleted.tsx"),
  route("admin/listings", "routes/admin-listings.tsx"),
  route("admin/outbox", "routes/admin-outbox.tsx"),
  route("admin/inbox", "routes/admin-inbox.tsx"),
  route("admin/inbox/export", "routes/admin-inbox-export.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
