/**
 * Topics of cache news that more than one module publishes (invalidation.ts): a lesson's common
 * questions change with the questions module's writes and with an account erasure (decision 0056).
 */
export const COMMON_QUESTIONS_TOPIC = "common-questions";
