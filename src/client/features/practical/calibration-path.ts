/** Where calibration lives: the overview, and each exemplar under it (routePatterns.reviewCalibration). */
export const CALIBRATION_PATH = "/review/calibration";
