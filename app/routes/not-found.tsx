import { data } from "react-router";
import { NotFoundPage } from "~/features/layout";

export function loader() {
  return data(null, { status: 404 });
}

export default NotFoundPage;
