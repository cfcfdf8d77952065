// Product constants both sides use. Texts that show them interpolate these values.

export const BRAND_NAME = "Holistic Wellness Academy";
/** Quiz score (whole percent) that passes a module. */
export const PASS_MARK = 80;
/** Days after enrolment in which an admin may refund an order. */
export const REFUND_WINDOW_DAYS = 7;
/** The one currency prices are in (Stripe's lower-case code). */
export const CURRENCY = "usd";
/** Support address when SUPPORT_EMAIL is not set. */
export const DEFAULT_SUPPORT_EMAIL = "support@wellness-academy.example";
/** Postal address printed on e-mails when ACADEMY_POSTAL_ADDRESS is not set. */
export const DEFAULT_POSTAL_ADDRESS = "100 Main Street, Suite 200, Portland, OR 97204, USA";
/** The payment id a learner sends to claim a course a coupon makes free. */
export const FREE_COUPON_PAYMENT = "free-coupon";
/** Shown instead of Buy buttons when no payment provider is configured (production without Stripe). */
export const PURCHASING_UNAVAILABLE = "Purchasing is not available yet";
/** Recertification opens this many days before a certificate expires... */
export const RENEWAL_OPENS_DAYS_BEFORE_EXPIRY = 90;
/** ...and stays open this many days after it expired. */
export const RENEWAL_CLOSES_DAYS_AFTER_EXPIRY = 365;

/** The code the server answers (403) when an action needs a fresh second factor or passkey (decision 0054). */
export const STEP_UP_REQUIRED = "STEP_UP_REQUIRED";
