// The company details the leads tests send their e-mail with (a LeadMail).
export const TEST_LEAD_MAIL = {
  notify: ["staff@example.com"],
  companyName: "Test Leasing",
  officeEmail: "office@example.com",
  officePhone: "703-555-0100",
  publicUrl: "https://leasing.example",
};
