// The form kit every form uses, public and staff (docs/architecture.md "How it fits together").
export { ActionAnswer, type ShownAnswer } from "./action-answer";
export {
  FieldError,
  FormError,
  invalidField,
  recordElapsed,
  SpamGuardFields,
  SubmitButton,
  type SubmitButtonProps,
  TextField,
  type TextFieldProps,
} from "./form-kit";
export { PublicForm, type PublicFormAnswer, type PublicFormProps } from "./public-form";
