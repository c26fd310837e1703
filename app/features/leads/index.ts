export {
  type InquiryAnswer,
  InquiryForm,
  type InquiryFormProps,
  listingInquiry,
} from "./inquiry-form";
