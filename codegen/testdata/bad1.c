/* bad1: rejected by the front end */

