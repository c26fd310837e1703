export { InboxList } from "./inbox-list";
export {
  type InquiryAnswer,
  InquiryForm,
  type InquiryFormProps,
} from "./inquiry-form";
