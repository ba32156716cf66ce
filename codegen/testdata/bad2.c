/* bad2: rejected by the front end */

