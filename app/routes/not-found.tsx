import { data } from "react-router";
import { NotFoundPage } from "~/features/layout/not-found-page";

export function loader() {
  return data(null, { status: 404 });
}

export default NotFoundPage;
