// Rule pages: preview linked paragraphs on hover, focus or tap.
import {installPreviews} from "./preview.js";

installPreviews();
