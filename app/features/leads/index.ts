export {
  type InquiryAnswer,
  InquiryForm,
  type InquiryFormProps,
} from "./inquiry-form";
